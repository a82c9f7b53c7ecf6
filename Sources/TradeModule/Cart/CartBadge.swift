import ServiceHiveFunctions

extension FunctionKey where Control == BadgeLabel, Value == Int {
    /// The number of items in the cart, on every cart badge: the home screen's, the product page's, search's.
    ///
    /// ```swift
    /// try center.attach(badge, to: .cartBadge)
    /// ```
    ///
    /// ``CartModule`` registers its function, and ``CartService`` posts to it whenever the cart changes. A badge
    /// shows the count, hidden when the cart is empty, and `99+` above 99.
    public static var cartBadge: Self { Self("trade.cart-badge") }
}

/// The cart badge's business function, written once, here, by the module that owns the cart.
enum CartBadge {
    /// The function: a badge shows the cart's number of items, from the moment it is attached.
    static func function(cart: any CartService) -> BusinessFunction<BadgeLabel, Int> {
        BusinessFunction(currentValue: { cart.totalQuantity }) { badge, count, _ in
            badge.text = count > 99 ? "99+" : "\(count)"
            badge.isHidden = count == 0
        }
    }
}
