import ServiceHive
import Support
import Testing

/// Something a factory captures, to see when the registration is released.
final class Captured: Sendable {}

/// A singleton that keeps its resolver, to resolve lazily later: the pattern that would tie an instance to its
/// hive in a retain cycle if the resolver kept the hive alive.
final class LazyCart: Cart, Sendable {
    let resolver: ServiceHive.Resolver
    init(resolver: ServiceHive.Resolver) { self.resolver = resolver }
    var trade: any TradeService { try! resolver.resolve() }
}

@Suite("The hive releases what it should", .timeLimit(.minutes(5)))
struct ReleaseTests {
    @Test("dropping the last reference to a hive releases its singletons and its factories' captures")
    func droppingTheHive() throws {
        var hive: ServiceHive? = ServiceHive()
        let captured = Captured()
        weak let observedCapture = captured
        try hive?.register(TradeService.self, scope: .singleton) { [captured] in
            withExtendedLifetime(captured) { LiveTradeService() }
        }
        weak let singleton = try hive?.resolve(TradeService.self)
        weak let observedHive = hive
        _ = consume captured

        #expect(singleton != nil)
        hive = nil
        #expect(observedHive == nil)
        #expect(singleton == nil)
        #expect(observedCapture == nil)
    }

    @Test("unregister releases the cached instance and the factory's captures")
    func unregisterReleases() throws {
        let hive = ServiceHive()
        let captured = Captured()
        weak let observedCapture = captured
        try hive.register(TradeService.self, scope: .singleton) { [captured] in
            withExtendedLifetime(captured) { LiveTradeService() }
        }
        weak let singleton = try hive.resolve(TradeService.self)
        _ = consume captured

        #expect(hive.unregister(TradeService.self))
        #expect(singleton == nil)
        #expect(observedCapture == nil)
    }

    @Test("resetInstances releases cached singletons and keeps the factories")
    func resetReleases() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        try hive.register(Session.self, scope: .singleton) { LiveSession() }
        weak let trade = try hive.resolve(TradeService.self)
        weak let session = try hive.resolve(Session.self)

        hive.resetInstances()
        #expect(trade == nil)
        #expect(session == nil)
        #expect(hive.registrations.count == 2)
    }

    @Test("a weak-scoped instance is never retained by the hive, in a scope or out of one")
    func weakNeverRetained() throws {
        let hive = ServiceHive()
        try hive.register(Session.self, scope: .weak) { LiveSession() }
        weak let outside = try hive.resolve(Session.self)
        #expect(outside == nil)
        try hive.withOverrides { _ in
        } operation: {
            weak let inside = try hive.resolve(Session.self)
            #expect(inside == nil)
        }
    }

    @Test("an override scope's instances are released when the scope ends, sync or async")
    func scopeInstancesReleased() async throws {
        let hive = ServiceHive()
        try hive.register(Session.self) { LiveSession() }
        try hive.register(TradeService.self, scope: .singleton) { r in
            _ = try r.resolve(Session.self)
            return LiveTradeService()
        }
        weak var real: (any TradeService)?
        weak var mock: (any TradeService)?
        try hive.withOverrides {
            $0.register(Session.self, scope: .singleton) { LiveSession() }
        } operation: {
            real = try hive.resolve(TradeService.self)
        }
        #expect(real == nil, "built from the overridden session, so it belonged to the overrides")

        try await hive.withOverrides {
            $0.register(TradeService.self, scope: .singleton) { MockTradeService() }
        } operation: {
            await Task.yield()
            mock = try hive.resolve(TradeService.self)
        }
        #expect(mock == nil)
    }

    @Test("no retain cycle joins a hive, its registrations, instances that keep their resolver, and a child hive")
    func noRetainCycle() throws {
        var parent: ServiceHive? = ServiceHive()
        var child: ServiceHive? = ServiceHive(parent: parent!)
        try parent?.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        try parent?.register(Cart.self, scope: .singleton) { r in LazyCart(resolver: r) }
        try child?.register(Cart.self, name: "child", scope: .singleton) { r in LazyCart(resolver: r) }
        try child?.register(Session.self, scope: .weak) { LiveSession() }

        weak let parentCart = try child?.resolve(Cart.self) as? LazyCart
        weak let childCart = try child?.resolve(Cart.self, name: "child") as? LazyCart
        #expect(parentCart?.trade.label == "live", "the kept resolver works while its hive lives")
        weak let observedParent = parent
        weak let observedChild = child

        child = nil
        #expect(observedChild == nil)
        #expect(childCart == nil)
        #expect(observedParent != nil, "the child no longer keeps its parent")
        parent = nil
        #expect(observedParent == nil)
        #expect(parentCart == nil)
    }

    @Test("a kept resolver used after its hive is gone throws hiveReleased instead of trapping")
    func resolverAfterItsHiveThrows() throws {
        var hive: ServiceHive? = ServiceHive()
        try hive!.register(TradeService.self) { LiveTradeService() }
        try hive!.register(Cart.self, scope: .singleton) { r in LazyCart(resolver: r) }
        let cart = try hive!.resolve(Cart.self) as! LazyCart
        hive = nil
        let error = error { _ = try cart.resolver.resolve(TradeService.self) }
        #expect(
            error?.description.hasPrefix("Resolving TradeService through a ServiceHive.Resolver whose hive") == true)
    }

    @Test("a singleton whose deinit resolves through its kept resolver, as its hive goes, gets hiveReleased")
    func deinitResolvesAsTheHiveGoes() throws {
        let outcome = Locked<String?>(nil)
        var hive: ServiceHive? = ServiceHive()
        try hive!.register(TradeService.self) { LiveTradeService() }
        try hive!.register(Session.self, scope: .singleton) { r in
            ShuttingDown(resolver: r) { resolver in
                do {
                    _ = try resolver.resolve(TradeService.self)
                    outcome.withLock { $0 = "resolved" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
            }
        }
        _ = try hive!.resolve(Session.self)
        hive = nil
        #expect(outcome.current?.hasPrefix("Resolving TradeService through a ServiceHive.Resolver") == true)
    }
}

/// A session that logs "shutting down" from its `deinit`, through its kept resolver.
final class ShuttingDown: Session {
    let resolver: ServiceHive.Resolver
    let onDeinit: @Sendable (ServiceHive.Resolver) -> Void
    init(resolver: ServiceHive.Resolver, onDeinit: @escaping @Sendable (ServiceHive.Resolver) -> Void) {
        self.resolver = resolver
        self.onDeinit = onDeinit
    }
    deinit { onDeinit(resolver) }
}
