import ServiceHive
import ServiceHiveTesting
import Support
import Testing

@testable import TradeModule

/// A pricing that charges a flat price, and knows only the items it is given.
struct FlatPricing: PricingService {
    var tier: String { "flat" }
    var items: Set<String> = ["hive-42", "honey-jar", "smoker"]
    var cents = 100
    func unitPrice(of itemId: String) -> Money? { items.contains(itemId) ? Money(cents: cents) : nil }
}

/// An inventory with a fixed stock per item that records what was reserved.
final class RecordingInventory: InventoryService {
    private let state: Protected<(stock: [String: Int], reserved: [String])>

    init(stock: [String: Int]) { state = Protected((stock, [])) }

    var reserved: [String] { state.withLock { $0.reserved } }

    func stock(of itemId: String) -> Int? { state.withLock { $0.stock[itemId] } }

    func reserve(_ quantity: Int, of itemId: String) throws(TradeError) {
        try state.withLock { (state) throws(TradeError) in
            guard let available = state.stock[itemId] else { throw .unknownItem(itemId) }
            guard available >= quantity else {
                throw .outOfStock(itemId: itemId, requested: quantity, available: available)
            }
            state.stock[itemId] = available - quantity
            state.reserved.append("\(quantity) × \(itemId)")
        }
    }

    func restock(_ quantity: Int, of itemId: String) {
        state.withLock { $0.stock[itemId, default: 0] += quantity }
    }
}

/// A hive with the trade module installed, as an app's composition root would have it.
func tradeHive() async throws -> ServiceHive {
    let hive = ServiceHive()
    try await hive.install(TradeModule())
    return hive
}

@Suite("TradeModule's business rules, with pricing and inventory swapped in override scopes", .timeLimit(.minutes(5)))
struct TradeModuleTests {
    @Test("a quote uses whatever pricing is registered")
    func quoteUsesPricing() async throws {
        let hive = try await tradeHive()
        let quote = try hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            return try trade.quote(itemId: "hive-42", quantity: 3)
        }
        #expect(quote == Quote(itemId: "hive-42", quantity: 3, unitPrice: Money(cents: 100), tier: "flat"))
        #expect(quote.total == Money(cents: 300))
        #expect(try hive.resolve(TradeService.self).quote(itemId: "hive-42", quantity: 1).tier == "standard")
    }

    @Test("the premium pricing variant is 10% below the standard price")
    func premiumPricing() async throws {
        let hive = try await tradeHive()
        let standard = try hive.resolve(TradeService.self).quote(itemId: "smoker", quantity: 1)
        let premium = try hive.resolve(TradeService.self, name: "premium").quote(itemId: "smoker", quantity: 1)
        #expect(standard.unitPrice == Money(cents: 4_500))
        #expect(premium.unitPrice == Money(cents: 4_050))
        #expect(premium.tier == "premium")
    }

    @Test("an order takes stock out of the inventory and numbers orders from 1")
    func orderReservesStock() async throws {
        let hive = try await tradeHive()
        let inventory = RecordingInventory(stock: ["hive-42": 5])
        try hive.withOverrides {
            $0.register(InventoryService.self, instance: inventory)
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            let first = try trade.placeOrder(itemId: "hive-42", quantity: 2)
            let second = try trade.placeOrder(itemId: "hive-42", quantity: 3)
            #expect([first.number, second.number] == [1, 2])
        }
        #expect(inventory.reserved == ["2 × hive-42", "3 × hive-42"])
        #expect(inventory.stock(of: "hive-42") == 0)
    }

    @Test("quantities outside 1...100 are refused before anything is reserved", arguments: [0, -3, 101])
    func invalidQuantity(quantity: Int) async throws {
        let hive = try await tradeHive()
        let inventory = RecordingInventory(stock: ["hive-42": 500])
        try hive.withOverrides {
            $0.register(InventoryService.self, instance: inventory)
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect(throws: TradeError.invalidQuantity(quantity)) {
                try trade.placeOrder(itemId: "hive-42", quantity: quantity)
            }
        }
        #expect(inventory.reserved.isEmpty)
    }

    @Test("an item the pricing doesn't know is refused")
    func unknownItem() async throws {
        let hive = try await tradeHive()
        try hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing(items: []) }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect(throws: TradeError.unknownItem("hive-42")) { try trade.quote(itemId: "hive-42", quantity: 1) }
        }
    }

    @Test("an order for more than the stock is refused, says how many are left, and reserves nothing")
    func outOfStock() async throws {
        let hive = try await tradeHive()
        let inventory = RecordingInventory(stock: ["hive-42": 1])
        try hive.withOverrides {
            $0.register(InventoryService.self, instance: inventory)
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            let refusal = TradeError.outOfStock(itemId: "hive-42", requested: 2, available: 1)
            #expect(throws: refusal) { try trade.placeOrder(itemId: "hive-42", quantity: 2) }
            #expect(refusal.description == "only 1 of hive-42 in stock, 2 requested")
        }
        #expect(inventory.reserved.isEmpty)
    }

    @Test("the real inventory is safe under concurrent orders: exactly the stock is sold")
    func concurrentOrders() async throws {
        let hive = try await tradeHive()
        try await hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            // Each order is placed or refused for want of stock; anything else fails the test.
            let refusals = try await within("forty orders") {
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<40 {
                        group.addTask {
                            do {
                                _ = try trade.placeOrder(itemId: "honey-jar", quantity: 1)
                                return false
                            } catch TradeError.outOfStock(itemId: "honey-jar", requested: 1, available: 0) {
                                return true
                            }
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
            #expect(refusals == 20, "20 sold, and 20 refused")
            #expect(try hive.resolve(InventoryService.self).stock(of: "honey-jar") == 0)
        }
    }

    @Test("a basket, built from a runtime argument, checks out every line through the trade service")
    func basket() async throws {
        let hive = try await tradeHive()
        try hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing() }
        } operation: {
            let basket = try hive.resolve(Basket.self, arguments: "customer-7")
            basket.add(itemId: "honey-jar", quantity: 2)
            basket.add(itemId: "smoker", quantity: 5)
            basket.add(itemId: "hive-42", quantity: 1)
            #expect(basket.customerId == "customer-7")
            #expect(throws: TradeError.outOfStock(itemId: "smoker", requested: 5, available: 1)) {
                try basket.checkout()
            }
            // The line that failed, and the ones after it, stay in the basket.
            let inventory = try hive.resolve(InventoryService.self)
            inventory.restock(4, of: "smoker")
            let orders = try basket.checkout()
            #expect(orders.map(\.quote.itemId) == ["smoker", "hive-42"])
            #expect(orders.map(\.number) == [2, 3])
        }
    }

    @Test("a Restock broadcast puts units back in stock")
    func restockEvent() async throws {
        let hive = try await tradeHive()
        let before = try hive.resolve(InventoryService.self).stock(of: "smoker")
        await hive.broadcast(Restock(itemId: "smoker", quantity: 4))
        #expect(try hive.resolve(InventoryService.self).stock(of: "smoker") == before.map { $0 + 4 })
    }

    @Test("the module refuses to start when its pricing lacks an item of the catalog")
    func startChecksPrices() async throws {
        let hive = ServiceHive()
        let failure = await hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing(items: ["hive-42"]) }
        } operation: { () async -> ServiceHiveError? in
            do {
                try await hive.install(TradeModule())
                return nil
            } catch {
                return error as? ServiceHiveError
            }
        }
        guard case .moduleFailed("Trade", .start, let underlying) = failure else {
            Issue.record("expected the install to fail to start Trade, got \(String(describing: failure))")
            return
        }
        #expect(underlying as? TradeError == .unknownItem("honey-jar"))
        #expect(!hive.isRegistered(TradeService.self), "the install was rolled back")
    }

    @Test("the composition root with the trade module validates")
    func validates() async throws {
        let report = try await tradeHive().validate()
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.service) == ["Basket"])
    }
}

/// The hive of the suite below: the suite installs the trade module into it once, and its tests override it.
enum TradeSuite {
    static let hive = ServiceHive()
}

@Suite(
    "TradeModule installed once for a suite, with overrides per test",
    .modulesInstalled([TradeModule()], in: TradeSuite.hive),
    .serviceOverrides(hive: TradeSuite.hive) {
        $0.register(PricingService.self) { FlatPricing(cents: 250) }
        $0.register(InventoryService.self, scope: .singleton) { RecordingInventory(stock: ["smoker": 1]) }
    },
    .timeLimit(.minutes(5))
)
struct TradeModuleTraitTests {
    @Test("every test of the suite prices with the suite's pricing")
    func flatPrice() throws {
        let quote = try TradeSuite.hive.resolve(TradeService.self).quote(itemId: "smoker", quantity: 2)
        #expect(quote.total == Money(cents: 500))
        #expect(TradeSuite.hive.installedModules == ["Trade"], "installed before the first test")
    }

    @Test("TradeService is built from the overrides, so each test has its own, numbering orders from #1")
    func ownTradeService() throws {
        let order = try TradeSuite.hive.resolve(TradeService.self).placeOrder(itemId: "smoker", quantity: 1)
        #expect(order.number == 1)
    }

    @Test("the inventory is overridden as a singleton per test, so this test can buy the only smoker too")
    func ownInventory() throws {
        let order = try TradeSuite.hive.resolve(TradeService.self).placeOrder(itemId: "smoker", quantity: 1)
        #expect(order.number == 1)
    }

    @Test("a service built from nothing overridden is the one the module built: every test shares it")
    func sharedService() async throws {
        let inside = try TradeSuite.hive.resolve(PricingService.self, name: "premium")
        let outside = try await Task.detached { try TradeSuite.hive.resolve(PricingService.self, name: "premium") }
            .value
        #expect(inside.tier == "premium")
        #expect((inside as? CatalogPricing) != nil && outside.unitPrice(of: "smoker") == inside.unitPrice(of: "smoker"))
    }
}
