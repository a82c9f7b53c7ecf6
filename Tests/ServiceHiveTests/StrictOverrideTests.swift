import ServiceHive
import Support
import Testing

@Suite("Strict overrides and removing everything", .timeLimit(.minutes(5)))
struct StrictOverrideTests {
    @Test("inside strict overrides, a service the test did not override fails, naming it; overridden ones resolve")
    func strict() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Clock.self) { SystemClock() }
        try hive.withOverrides(strict: true) {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect(trade.label == "mock")
            let thrown = error { _ = try hive.resolve(Clock.self) }
            guard case .notOverridden(let key, _)? = thrown else {
                Issue.record("expected notOverridden, got \(String(describing: thrown))")
                return
            }
            #expect(key == ServiceHive.ServiceKey(Clock.self))
        }
        #expect(try hive.resolve(Clock.self) is SystemClock)
    }

    @Test("removeAll removes every registration of one hive, with its instances, and leaves parents alone")
    func removeAll() throws {
        let parent = ServiceHive()
        try parent.register(Clock.self, scope: .singleton) { SystemClock() }
        let hive = ServiceHive(parent: parent)
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Session.self, scope: .singleton) { LiveSession() }
        weak let session = try hive.resolve(Session.self)
        hive.removeAll()
        #expect(hive.registrations.isEmpty)
        #expect(session == nil, "its instances were released")
        #expect(hive.visibleRegistrations.map(\.service) == ["Clock"])
        #expect(try hive.resolve(Clock.self) === parent.resolve(Clock.self))
    }
}
