import ServiceHive

/// An amount of money in cents, printed as dollars: `$12.50`.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The amount in cents.
    public var cents: Int

    /// Creates an amount of money.
    ///
    /// - Parameter cents: The amount in cents.
    public init(cents: Int) { self.cents = cents }

    /// `$12.50`.
    public var description: String {
        let fraction = cents % 100
        return "$\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Orders amounts by value.
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    /// The amount times a quantity.
    public static func * (lhs: Money, rhs: Int) -> Money { Money(cents: lhs.cents * rhs) }
}

/// The price of a quantity of an item, under one pricing tier.
public struct Quote: Sendable, Hashable, CustomStringConvertible {
    /// The item quoted.
    public var itemId: String
    /// The number of units.
    public var quantity: Int
    /// The price of one unit.
    public var unitPrice: Money
    /// The pricing tier that set the price.
    public var tier: String

    /// Creates a quote.
    public init(itemId: String, quantity: Int, unitPrice: Money, tier: String) {
        self.itemId = itemId
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.tier = tier
    }

    /// The price of every unit together.
    public var total: Money { unitPrice * quantity }

    /// `2 × hive-42 at $12.50 (standard) = $25.00`.
    public var description: String { "\(quantity) × \(itemId) at \(unitPrice) (\(tier)) = \(total)" }
}

/// A quantity of an item: what `trade/quote` prices and `trade/order` orders, and one line of the cart.
public struct TradeRequest: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The item, such as `hive-42`.
    public var itemId: String
    /// The number of units.
    public var quantity: Int

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - itemId: The item.
    ///   - quantity: The number of units.
    public init(itemId: String, quantity: Int) {
        self.itemId = itemId
        self.quantity = quantity
    }

    /// `2 × hive-42`.
    public var description: String { "\(quantity) × \(itemId)" }

    /// The names of the arguments of `trade/quote` and `trade/order`: `item` and `quantity`.
    enum CodingKeys: String, CodingKey {
        case itemId = "item"
        case quantity
    }
}

/// A placed order.
public struct Order: Sendable, Hashable, CustomStringConvertible {
    /// The order number, counting from 1 in each trade service.
    public var number: Int
    /// What was ordered, and its price.
    public var quote: Quote

    /// Creates an order.
    public init(number: Int, quote: Quote) {
        self.number = number
        self.quote = quote
    }

    /// `order #1: 2 × hive-42 at $12.50 (standard) = $25.00`.
    public var description: String { "order #\(number): \(quote)" }
}

/// Why a trade was refused.
public enum TradeError: Error, Hashable, CustomStringConvertible {
    /// The quantity is outside 1...100.
    case invalidQuantity(Int)
    /// The catalog has no such item.
    case unknownItem(String)
    /// There are fewer units in stock than requested.
    case outOfStock(itemId: String, requested: Int, available: Int)

    /// One line, as a customer would be told.
    public var description: String {
        switch self {
        case .invalidQuantity(let quantity):
            return "a quantity must be between 1 and \(TradeRules.maximumQuantity), not \(quantity)"
        case .unknownItem(let itemId):
            return "there is no item \(itemId)"
        case let .outOfStock(itemId, requested, available):
            return "only \(available) of \(itemId) in stock, \(requested) requested"
        }
    }
}

/// An item of the catalog, with its standard price and opening stock.
public struct CatalogItem: Sendable, Hashable {
    /// The item's ID, such as `hive-42`.
    public var id: String
    /// The standard price of one unit.
    public var price: Money
    /// The stock when the module starts.
    public var stock: Int

    /// Creates a catalog item.
    public init(id: String, price: Money, stock: Int) {
        self.id = id
        self.price = price
        self.stock = stock
    }

    /// A small catalog for demos and tests.
    public static let sample: [CatalogItem] = [
        CatalogItem(id: "hive-42", price: Money(cents: 1_250), stock: 5),
        CatalogItem(id: "honey-jar", price: Money(cents: 899), stock: 20),
        CatalogItem(id: "smoker", price: Money(cents: 4_500), stock: 1),
    ]
}

/// A broadcast that puts units of an item back into stock; ``TradeModule`` handles it.
public struct Restock: ServiceModuleEvent, Hashable {
    /// The item.
    public var itemId: String
    /// The units added.
    public var quantity: Int

    /// Creates a restock event.
    public init(itemId: String, quantity: Int) {
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// The rules every trade follows.
enum TradeRules {
    static let maximumQuantity = 100
    /// How many items ``CustomerSession/recentlyViewed`` keeps.
    static let recentlyViewedLimit = 10

    static func check(quantity: Int) throws(TradeError) {
        guard (1...maximumQuantity).contains(quantity) else { throw .invalidQuantity(quantity) }
    }
}
