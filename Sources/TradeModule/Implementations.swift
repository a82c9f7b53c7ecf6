import ServiceHive

// The implementations are internal: code outside this module can only reach them through the protocols.

final class LiveTradeService: TradeService {
    private let pricing: any PricingService
    private let inventory: any InventoryService
    private let lastOrderNumber = Protected(0)

    init(pricing: any PricingService, inventory: any InventoryService) {
        self.pricing = pricing
        self.inventory = inventory
    }

    func quote(itemId: String, quantity: Int) throws(TradeError) -> Quote {
        try TradeRules.check(quantity: quantity)
        guard let price = pricing.unitPrice(of: itemId) else { throw .unknownItem(itemId) }
        return Quote(itemId: itemId, quantity: quantity, unitPrice: price, tier: pricing.tier)
    }

    func placeOrder(itemId: String, quantity: Int) throws(TradeError) -> Order {
        let quote = try quote(itemId: itemId, quantity: quantity)
        try inventory.reserve(quantity, of: itemId)
        let number = lastOrderNumber.withLock { last in
            last += 1
            return last
        }
        return Order(number: number, quote: quote)
    }
}

struct CatalogPricing: PricingService {
    let tier: String
    private let prices: [String: Money]

    init(catalog: [CatalogItem], tier: String = "standard", discountPercent: Int = 0) {
        self.tier = tier
        prices = Dictionary(
            uniqueKeysWithValues: catalog.map { item in
                (item.id, Money(cents: item.price.cents * (100 - discountPercent) / 100))
            })
    }

    func unitPrice(of itemId: String) -> Money? { prices[itemId] }
}

final class InMemoryInventory: InventoryService {
    private let units: Protected<[String: Int]>

    init(catalog: [CatalogItem]) {
        units = Protected(Dictionary(uniqueKeysWithValues: catalog.map { ($0.id, $0.stock) }))
    }

    func stock(of itemId: String) -> Int? {
        units.withLock { $0[itemId] }
    }

    func reserve(_ quantity: Int, of itemId: String) throws(TradeError) {
        try units.withLock { (units) throws(TradeError) in
            guard let available = units[itemId] else { throw .unknownItem(itemId) }
            guard available >= quantity else {
                throw .outOfStock(itemId: itemId, requested: quantity, available: available)
            }
            units[itemId] = available - quantity
        }
    }

    func restock(_ quantity: Int, of itemId: String) {
        units.withLock { $0[itemId, default: 0] += quantity }
    }
}

final class CustomerBasket: Basket {
    private let owner: @Sendable () -> String
    private let trade: @Sendable () throws -> any TradeService
    private let lines = Protected<[(itemId: String, quantity: Int)]>([])

    /// A basket for one customer, given by ID, that orders through `trade`.
    init(customerId: String, trade: any TradeService) {
        owner = { customerId }
        self.trade = { trade }
    }

    /// The session's basket: it belongs to whoever is signed in to `session`, and resolves the trade service at its
    /// first checkout. Most baskets are never checked out, so opening a session builds nothing of the trading stack.
    init(session: any CustomerSession, trade: ServiceHive.Lazy<any TradeService>) {
        owner = { session.customerId ?? "guest" }
        self.trade = { try trade.instance }
    }

    var customerId: String { owner() }

    func add(itemId: String, quantity: Int) {
        lines.withLock { $0.append((itemId, quantity)) }
    }

    func checkout() throws -> [Order] {
        let trade = try self.trade()
        return try lines.withLock { (lines) throws(TradeError) in
            var orders: [Order] = []
            while let line = lines.first {
                orders.append(try trade.placeOrder(itemId: line.itemId, quantity: line.quantity))
                lines.removeFirst()
            }
            return orders
        }
    }
}
