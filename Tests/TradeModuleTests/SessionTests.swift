import ServiceHive
import Support
import Testing

@testable import TradeModule

@Suite("The inventory, one instance under two protocols", .timeLimit(.minutes(5)))
struct ForwardedInventoryTests {
    @Test(
        "InventoryService and StockReader resolve to the same inventory, and a restock through one shows in the other")
    func oneInstance() async throws {
        let hive = try await tradeHive()
        let inventory = try hive.resolve(InventoryService.self)
        let reader = try hive.resolve(StockReader.self)
        #expect(inventory as AnyObject === reader as AnyObject)
        let before = try #require(reader.stock(of: "smoker"))
        inventory.restock(4, of: "smoker")
        #expect(reader.stock(of: "smoker") == before + 4)
    }

    @Test("the registry lists the two protocols as forwards to the one inventory registration")
    func listedAsForwards() async throws {
        let hive = try await tradeHive()
        let forwards = hive.registrations.filter { $0.forwardsTo != nil }.map { "\($0.key) → \($0.forwardsTo!)" }
        #expect(forwards == ["InventoryService → InMemoryInventory", "StockReader → InMemoryInventory"])
    }

    @Test("the cart reads the stock through StockReader, so an override of StockReader is what it checks against")
    func cartReadsStockReader() async throws {
        let hive = try await cartHive()
        try hive.withOverrides {
            $0.register(StockReader.self, instance: RecordingInventory(stock: ["hive-42": 1]))
        } operation: {
            let cart = try hive.resolve(CartService.self)
            #expect(throws: TradeError.outOfStock(itemId: "hive-42", requested: 2, available: 1)) {
                try cart.setQuantity(2, of: "hive-42")
            }
        }
    }
}

@Suite("The customer's session, in the session scope", .timeLimit(.minutes(5)))
struct CustomerSessionTests {
    @Test("the session and its basket are the same on every resolve, until the session scope is reset")
    func sharedUntilReset() async throws {
        let hive = try await tradeHive()
        let session = try hive.resolve(CustomerSession.self)
        let basket = try hive.resolve(Basket.self)
        #expect(try hive.resolve(CustomerSession.self) === session)
        #expect(try hive.resolve(Basket.self) === basket)

        hive.resetInstances(in: .session)
        #expect(try hive.resolve(CustomerSession.self) !== session)
        #expect(try hive.resolve(Basket.self) !== basket)
    }

    @Test("signing out keeps the singletons: the trade service, its order numbers, and the inventory's stock")
    func singletonsStay() async throws {
        let hive = try await tradeHive()
        let trade = try hive.resolve(TradeService.self)
        let inventory = try hive.resolve(InventoryService.self)
        let basket = try hive.resolve(Basket.self)
        basket.add(itemId: "honey-jar", quantity: 2)
        #expect(try basket.checkout().map(\.number) == [1])

        hive.resetInstances(in: .session)
        #expect(try hive.resolve(TradeService.self) as AnyObject === trade as AnyObject)
        #expect(try hive.resolve(InventoryService.self) as AnyObject === inventory as AnyObject)
        let next = try hive.resolve(Basket.self)
        next.add(itemId: "honey-jar", quantity: 1)
        #expect(try next.checkout().map(\.number) == [2])
        #expect(inventory.stock(of: "honey-jar") == 17)
    }

    @Test("the session's basket belongs to a guest until a customer signs in, and then to that customer")
    func basketOwner() async throws {
        let hive = try await tradeHive()
        let basket = try hive.resolve(Basket.self)
        basket.add(itemId: "smoker", quantity: 1)
        #expect(basket.customerId == "guest")
        try hive.resolve(CustomerSession.self).signIn(customerId: "customer-7")
        #expect(basket.customerId == "customer-7")
        #expect(try basket.checkout().map(\.quote.itemId) == ["smoker"])

        hive.resetInstances(in: .session)
        #expect(try hive.resolve(CustomerSession.self).customerId == nil)
        #expect(try hive.resolve(Basket.self).customerId == "guest")
    }

    @Test("a basket for a customer given by ID is a new one on each resolve, apart from the session's")
    func basketsByArgument() async throws {
        let hive = try await tradeHive()
        let mine = try hive.resolve(Basket.self)
        let theirs = try hive.resolve(Basket.self, arguments: "customer-9")
        #expect(theirs.customerId == "customer-9")
        #expect(theirs !== mine)
        #expect(try hive.resolve(Basket.self, arguments: "customer-9") !== theirs)
    }

    @Test("recently viewed lists each item once, the most recent first, and keeps the last 10")
    func recentlyViewed() async throws {
        let hive = try await tradeHive()
        let session = try hive.resolve(CustomerSession.self)
        for item in ["smoker", "honey-jar", "smoker"] { session.view(itemId: item) }
        #expect(session.recentlyViewed == ["smoker", "honey-jar"])
        for number in 1...12 { session.view(itemId: "item-\(number)") }
        #expect(session.recentlyViewed == (3...12).reversed().map { "item-\($0)" })
    }

    @Test("a session made for a request is a new guest's each time, apart from the hive's session")
    func madeForARequest() async throws {
        let hive = try await tradeHive()
        let first = TradeModule.makeCustomerSession()
        let second = TradeModule.makeCustomerSession()
        #expect(first !== second)
        #expect(first.customerId == nil)
        #expect(first.recentlyViewed.isEmpty)
        first.signIn(customerId: "customer-7")
        first.view(itemId: "smoker")
        #expect(first.customerId == "customer-7")
        #expect(first.recentlyViewed == ["smoker"])
        #expect(second.customerId == nil, "each request's session is its own")
        let shared = try hive.resolve(CustomerSession.self)
        #expect(shared !== first)
        #expect(shared.customerId == nil, "the hive's session is not a request's")
    }

    @Test("the session's basket resolves the trade service at its first checkout, not when it is built")
    func lazyTradeService() async throws {
        let hive = try await tradeHive()
        let resolved = Locked<[String]>([])
        hive.trace = { trace in resolved.withLock { $0.append("\(trace.root.key) \(trace.root.outcome)") } }
        let basket = try hive.resolve(Basket.self)
        basket.add(itemId: "honey-jar", quantity: 1)
        #expect(resolved.current == ["Basket built"])
        _ = try basket.checkout()
        basket.add(itemId: "honey-jar", quantity: 1)
        _ = try basket.checkout()
        hive.trace = nil
        #expect(resolved.current == ["Basket built", "TradeService built"], "resolved once, at the first checkout")
    }

    @Test("a checkout whose trade service can't be resolved throws the hive's error, and the lines stay")
    func lazyFailure() async throws {
        let hive = try await tradeHive()
        let basket = try hive.resolve(Basket.self)
        basket.add(itemId: "honey-jar", quantity: 1)
        let error = hive.withOverrides {
            $0.register(TradeService.self) { () throws -> any TradeService in throw TradeError.unknownItem("all") }
        } operation: {
            #expect(throws: ServiceHiveError.self) { try basket.checkout() }
        }
        #expect(
            error?.description.hasPrefix("The factory for TradeService threw") == true, "\(String(describing: error))")
        #expect(try hive.resolve(InventoryService.self).stock(of: "honey-jar") == 20)
        #expect(try basket.checkout().map(\.quote.itemId) == ["honey-jar"], "nothing was kept: outside, it orders")
    }
}
