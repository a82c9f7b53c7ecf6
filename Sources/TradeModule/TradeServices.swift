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

/// Reads the stock of items, and can't change it: what a screen or a cart that shows stock needs.
///
/// ``TradeModule`` registers one inventory and exposes it as both ``InventoryService`` and `StockReader`, so the two
/// resolve to the same instance, and a restock through one is seen through the other:
///
/// ```swift
/// try hive.resolve(InventoryService.self).restock(10, of: "hive-42")
/// try hive.resolve(StockReader.self).stock(of: "hive-42")  // 10 more
/// ```
///
/// It is a registration of its own: a test that overrides ``InventoryService`` and wants the readers to see its
/// stock overrides `StockReader` too.
public protocol StockReader: Sendable {
    /// The units of `itemId` in stock, or `nil` for an item the catalog doesn't have.
    func stock(of itemId: String) -> Int?
}

/// The stock of every item, held in memory and safe to use from any thread: the ``StockReader`` that can change it.
public protocol InventoryService: StockReader {
    /// Takes `quantity` units of `itemId` out of stock, all or nothing.
    ///
    /// - Throws: ``TradeError/unknownItem(_:)`` or ``TradeError/outOfStock(itemId:requested:available:)``.
    func reserve(_ quantity: Int, of itemId: String) throws(TradeError)

    /// Puts `quantity` units of `itemId` into stock.
    func restock(_ quantity: Int, of itemId: String)
}

/// A customer's basket: collects lines, then places them as orders.
///
/// Resolve the signed-in customer's basket, which lives as long as their ``CustomerSession``, or a basket for any
/// customer, such as one a clerk fills on the phone, with the customer's ID:
///
/// ```swift
/// let mine = try hive.resolve(Basket.self)  // the session's: the same one until signing out
/// let theirs = try hive.resolve(Basket.self, arguments: "customer-7")  // a new one
/// ```
public protocol Basket: AnyObject, Sendable {
    /// The customer the basket belongs to. The session's basket belongs to whoever is signed in, `guest` until then.
    var customerId: String { get }

    /// Adds a line to the basket.
    func add(itemId: String, quantity: Int)

    /// Places an order for every line, in the order added, and empties the basket.
    ///
    /// - Throws: The first ``TradeError``; the lines before it are ordered, the rest stay in the basket. The
    ///   session's basket resolves the trade service at its first checkout, so that one can also throw the hive's
    ///   `ServiceHiveError` when the trade service can't be resolved; nothing is ordered then.
    func checkout() throws -> [Order]
}
