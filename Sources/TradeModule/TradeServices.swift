import ServiceHive

/// Quotes items and places orders. The business rules of trading live here, not in its callers.
///
/// Resolve it by protocol; the implementation is internal to the module:
///
/// ```swift
/// let trade = try hive.resolve(TradeService.self)
/// let order = try trade.placeOrder(itemId: "hive-42", quantity: 2)
/// ```
public protocol TradeService: Sendable {
    /// The price of `quantity` units of an item, without reserving them.
    ///
    /// - Throws: ``TradeError/invalidQuantity(_:)`` or ``TradeError/unknownItem(_:)``.
    func quote(itemId: String, quantity: Int) throws(TradeError) -> Quote

    /// Reserves `quantity` units of an item and returns the order.
    ///
    /// - Throws: ``TradeError/invalidQuantity(_:)``, ``TradeError/unknownItem(_:)`` or
    ///   ``TradeError/outOfStock(itemId:requested:available:)``; nothing is reserved then.
    func placeOrder(itemId: String, quantity: Int) throws(TradeError) -> Order
}

/// Prices items. The module registers a standard pricing and a `"premium"` one.
public protocol PricingService: Sendable {
    /// The name of the pricing tier, such as `standard`.
    var tier: String { get }

    /// The price of one unit of `itemId`, or `nil` for an item the catalog doesn't have.
    func unitPrice(of itemId: String) -> Money?
}

/// The stock of every item, held in memory and safe to use from any thread.
public protocol InventoryService: Sendable {
    /// The units of `itemId` in stock, or `nil` for an item the catalog doesn't have.
    func stock(of itemId: String) -> Int?

    /// Takes `quantity` units of `itemId` out of stock, all or nothing.
    ///
    /// - Throws: ``TradeError/unknownItem(_:)`` or ``TradeError/outOfStock(itemId:requested:available:)``.
    func reserve(_ quantity: Int, of itemId: String) throws(TradeError)

    /// Puts `quantity` units of `itemId` into stock.
    func restock(_ quantity: Int, of itemId: String)
}

/// A customer's basket: collects lines, then places them as orders. Resolve it with the customer's ID:
///
/// ```swift
/// let basket = try hive.resolve(Basket.self, arguments: "customer-7")
/// ```
public protocol Basket: AnyObject, Sendable {
    /// The customer the basket belongs to.
    var customerId: String { get }

    /// Adds a line to the basket.
    func add(itemId: String, quantity: Int)

    /// Places an order for every line, in the order added, and empties the basket.
    ///
    /// - Throws: The first ``TradeError``; the lines before it are ordered, the rest stay in the basket.
    func checkout() throws(TradeError) -> [Order]
}
