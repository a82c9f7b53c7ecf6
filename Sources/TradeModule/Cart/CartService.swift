/// The shopping cart: the service layer under the screens that show and change it.
///
/// Screens don't apply the business rules themselves; they ask the cart, which checks every change against the
/// catalog's prices, the stock and the trade rules, and announces the new number of items to every cart badge.
/// ``CartModule`` registers it; resolve it by protocol:
///
/// ```swift
/// let cart = try hive.resolve(CartService.self)
/// try cart.add(2, of: "hive-42")
/// cart.totalQuantity  // 2, and every cart badge shows 2
/// ```
///
/// Every change posts the cart's new ``totalQuantity`` to `.cartBadge` through the `FunctionPoster` registered in
/// the hive, if there is one; a hive without one, on a server for example, has a cart all the same.
public protocol CartService: Sendable {
    /// The lines of the cart, in the order their items were first added.
    var lines: [CartLine] { get }

    /// The number of units of every item together.
    var totalQuantity: Int { get }

    /// The number of units of one item in the cart; 0 when it has none.
    ///
    /// - Parameter itemId: The item.
    /// - Returns: The quantity.
    func quantity(of itemId: String) -> Int

    /// Adds units of an item.
    ///
    /// - Parameters:
    ///   - quantity: The units to add, 1 or more.
    ///   - itemId: The item.
    /// - Returns: The item's new quantity in the cart.
    /// - Throws: ``TradeError/invalidQuantity(_:)``, ``TradeError/unknownItem(_:)``, or
    ///   ``TradeError/outOfStock(itemId:requested:available:)`` when the stock can't cover the new quantity. The
    ///   cart is unchanged then.
    @discardableResult
    func add(_ quantity: Int, of itemId: String) throws(TradeError) -> Int

    /// Takes units of an item out; taking out more than the cart has leaves none.
    ///
    /// - Parameters:
    ///   - quantity: The units to take out, 1 or more.
    ///   - itemId: The item.
    /// - Returns: The item's new quantity in the cart.
    /// - Throws: ``TradeError/invalidQuantity(_:)`` for a quantity below 1.
    @discardableResult
    func reduce(_ quantity: Int, of itemId: String) throws(TradeError) -> Int

    /// Sets the quantity of an item; 0 removes it.
    ///
    /// - Parameters:
    ///   - quantity: The new quantity.
    ///   - itemId: The item.
    /// - Returns: The item's new quantity in the cart.
    /// - Throws: What ``add(_:of:)`` throws, and ``TradeError/invalidQuantity(_:)`` for a negative quantity.
    @discardableResult
    func setQuantity(_ quantity: Int, of itemId: String) throws(TradeError) -> Int

    /// The price of everything in the cart, under the standard pricing.
    var total: Money { get }

    /// Orders every line, in order, through the trade service, and empties the cart.
    ///
    /// - Returns: The orders placed.
    /// - Throws: The first ``TradeError``; the lines ordered before it leave the cart, the rest stay.
    func checkout() throws(TradeError) -> [Order]
}

/// One line of the cart: a quantity of an item, which checkout orders as it is, as a ``TradeRequest``.
public typealias CartLine = TradeRequest
