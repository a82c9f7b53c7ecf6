import ServiceHive
import Support
import Testing

/// A value type with injected properties.
struct CheckoutView {
    @ServiceHive.Injected(hive: PropertyWrapperTests.hive) var trade: any TradeService
    @ServiceHive.Injected(name: "premium", hive: PropertyWrapperTests.hive) var premium: any TradeService
    @ServiceHive.LazyInjected(hive: PropertyWrapperTests.hive) var clock: any Clock
}

/// An actor: its wrapper storage is isolated, so it is safe.
actor ReportWriter {
    @ServiceHive.LazyInjected(hive: PropertyWrapperTests.hive) var clock: any Clock
    func time() -> any Clock { clock }
}

/// A `@MainActor` class, Sendable through its actor.
@MainActor
final class CartScreen {
    @ServiceHive.Injected(hive: PropertyWrapperTests.hive) var trade: any TradeService
}

/// A non-isolated `Sendable` class keeps the wrappers as constants.
final class CheckoutService: Sendable {
    let trade = ServiceHive.Injected<any TradeService>(hive: PropertyWrapperTests.hive)
    let clock = ServiceHive.LazyInjected<any Clock>(hive: PropertyWrapperTests.hive)
}

@Suite("Property wrappers", .timeLimit(.minutes(5)))
struct PropertyWrapperTests {
    static let hive: ServiceHive = {
        let hive = ServiceHive()
        try! hive.register(TradeService.self) { LiveTradeService() }
        try! hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try! hive.register(Clock.self, scope: .singleton) { SystemClock() }
        return hive
    }()

    @Test("wrappers resolve in structs, actors, @MainActor classes, and as constants of a Sendable class")
    @MainActor
    func everywhere() async throws {
        let view = CheckoutView()
        #expect(view.trade.label == "live" && view.premium.label == "premium")
        #expect(view.clock === (try Self.hive.resolve(Clock.self)))
        let clock = await ReportWriter().time()
        #expect(clock === view.clock)
        #expect(CartScreen().trade.label == "live")
        let service = CheckoutService()
        #expect(service.trade.wrappedValue.label == "live" && service.clock.wrappedValue === clock)
    }

    @Test("an eager wrapper sees the overrides where its owner is made; a lazy one, where it is first read")
    func overrides() throws {
        let view = Self.hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
            $0.register(Clock.self) { SystemClock() }
        } operation: {
            CheckoutView()
        }
        #expect(view.trade.label == "mock", "resolved when the view was made, inside the overrides")
        #expect(view.clock === (try Self.hive.resolve(Clock.self)), "read first outside them")
    }

    @Test("the projected value throws the resolve's error instead of trapping")
    func projectedValueThrows() {
        @ServiceHive.Injected(hive: ServiceHive()) var missing: any TradeService
        @ServiceHive.LazyInjected(hive: ServiceHive()) var lazyMissing: any Clock
        #expect(throws: ServiceHiveError.self) { _ = try $missing.instance }
        #expect(throws: ServiceHiveError.self) { _ = try $lazyMissing.instance }
    }

    @Test("reading a wrapper whose resolve failed traps with the error's full text")
    func readingAFailureTraps() async throws {
        let result = try #require(
            try await within("the exit test") {
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    @ServiceHive.Injected(hive: ServiceHive()) var missing: any TradeService
                    _ = missing
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("TradeService is not registered. To fix, register it before resolving"))
    }
}
