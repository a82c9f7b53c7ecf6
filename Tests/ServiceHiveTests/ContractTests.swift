import ServiceHive
import Testing

/// The public API contract of the core and override issues, call shape by call shape, as an acceptance suite would
/// write it. Each shape that would collide with another registers into a hive of its own.
@Suite("The public API contract", .timeLimit(.minutes(5)))
struct ContractTests {
    @Test("every registration and resolve shape of the contract compiles and behaves as written")
    func coreShapes() throws {
        let hive = ServiceHive()  // an independent hive
        _ = ServiceHive.shared  // the process-wide hive

        try hive.register(TradeService.self) { LiveTradeService() }  // .transient (default)
        try ServiceHive().register(TradeService.self, scope: .singleton) { LiveTradeService() }
        try hive.register(Session.self, scope: .weak) { LiveSession() }
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        let prebuilt = LiveTradeService(label: "prebuilt")
        try hive.register(TradeService.self, name: "prebuilt", instance: prebuilt)

        let trade: any TradeService = try hive.resolve()
        let same = try hive.resolve(TradeService.self)
        let premium = try hive.resolve(TradeService.self, name: "premium")
        let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
        let named = try hive.resolve(Greeter.self, name: nil, arguments: "Mimi")  // name: + arguments: together
        #expect(trade.label == "live" && same.label == "live" && trade !== same)
        #expect(premium.label == "premium")
        #expect(greeter.greeting == "Hello, Mimi!" && named.greeting == greeter.greeting)
        #expect(try hive.resolve(TradeService.self, name: "prebuilt") === prebuilt)
        #expect(hive.isRegistered(TradeService.self))
        #expect(hive.isRegistered(TradeService.self, name: "premium"))

        let child = ServiceHive(parent: hive)  // looks locally first, then in the parent
        #expect(try child.resolve(Cart.self).trade.label == "live")

        #expect(hive.unregister(TradeService.self))  // @discardableResult Bool
        hive.unregister(TradeService.self, name: "premium")
        #expect(!hive.isRegistered(TradeService.self))
    }

    @Test("factories receive a ServiceHive.Resolver with the same resolve forms")
    func resolverShapes() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try hive.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Report.self) { (r: ServiceHive.Resolver) in
            let trade: any TradeService = try r.resolve()
            let same = try r.resolve(TradeService.self)
            let premium = try r.resolve(TradeService.self, name: "premium")
            let greeter = try r.resolve(Greeter.self, arguments: "Mimi")
            #expect(trade.label == same.label && premium.label == "premium" && greeter.greeting == "Hello, Mimi!")
            #expect(r.isRegistered(Greeter.self) == false)
            return LiveReport(header: SystemClock(), footer: SystemClock())
        }
        _ = try hive.resolve(Report.self)
    }

    @Test("the override shapes: sync and async, with name: and the r in factory form")
    func overrideShapes() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
            $0.register(TradeService.self, name: "premium") { MockTradeService(label: "premium mock") }
            $0.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        } operation: {
            let trade = try hive.resolve(TradeService.self)  // the mock
            let premium = try hive.resolve(TradeService.self, name: "premium")
            let cart = try hive.resolve(Cart.self)
            #expect(trade.label == "mock" && premium.label == "premium mock" && cart.trade.label == "mock")
        }

        try await hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            await Task.yield()
            let trade = try hive.resolve(TradeService.self)
            #expect(trade.label == "mock")
        }
        #expect(try hive.resolve(TradeService.self).label == "live")
    }
}
