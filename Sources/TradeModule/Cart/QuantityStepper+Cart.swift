extension QuantityStepper {
    /// Gives this plain stepper cart powers for one item: plus adds a unit to the cart, minus takes one out, and a
    /// typed number sets the quantity, all through the cart service, which applies the business rules.
    ///
    /// ```swift
    /// let stepper = QuantityStepper()
    /// stepper.editQuantity(of: "hive-42", in: try hive.resolve(CartService.self)) { refusal in
    ///     toast.show("\(refusal)")  // only 5 of hive-42 in stock, 6 requested
    /// }
    /// stepper.tapPlus()  // the cart has one more hive-42, and every cart badge shows it
    /// ```
    ///
    /// The field shows the item's quantity in the cart, from now on and after each change the stepper makes. This is
    /// the seed's category trick done as a Swift extension: the stepper stays a plain control that knows nothing of
    /// carts, and a screen that wants cart powers asks for them in one line.
    ///
    /// - Parameters:
    ///   - itemId: The item whose quantity the stepper edits.
    ///   - cart: The cart to change.
    ///   - onRefusal: Called with the reason when the cart refuses a change; the field keeps the cart's quantity.
    public func editQuantity(
        of itemId: String,
        in cart: any CartService,
        onRefusal: @escaping (TradeError) -> Void = { _ in }
    ) {
        value = cart.quantity(of: itemId)
        onPlus = { [weak self] in
            self?.change(onRefusal) { () throws(TradeError) in try cart.add(1, of: itemId) }
        }
        onMinus = { [weak self] in
            self?.change(onRefusal) { () throws(TradeError) in try cart.reduce(1, of: itemId) }
        }
        onNumberEntered = { [weak self] number in
            self?.change(onRefusal) { () throws(TradeError) in try cart.setQuantity(number, of: itemId) }
        }
    }

    /// Shows the quantity `operation` leaves in the cart, or reports its refusal.
    private func change(_ onRefusal: (TradeError) -> Void, _ operation: () throws(TradeError) -> Int) {
        do {
            value = try operation()
        } catch {
            onRefusal(error)
        }
    }
}
