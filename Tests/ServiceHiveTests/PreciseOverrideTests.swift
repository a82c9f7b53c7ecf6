import Foundation
import ServiceHive
import Support
import Testing

/// The rule of overrides: an instance is local to the overrides exactly when its construction used an overridden
/// service, directly or through any chain, in any hive. Everything else is shared with the world outside.
@Suite("Overrides are precise", .timeLimit(.minutes(5)))
struct PreciseOverrideTests {
    // MARK: - Not too wide

    @Test("a singleton built from nothing overridden is the one outside, state included")
    func unrelatedSingletonKeepsItsState() throws {
        let hive = ServiceHive()
        try hive.register(Catalog.self, scope: .singleton) { Catalog() }
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.resolve(Catalog.self).add("hive-42")  // what a module's start() would do

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let catalog = try hive.resolve(Catalog.self)
            #expect(catalog.items == ["hive-42"])
            #expect(try hive.resolve(TradeService.self).label == "mock")
        }
    }

    @Test("a singleton first built inside overrides it does not use is cached for the world")
    func unrelatedSingletonBuiltInsideIsShared() throws {
        let hive = ServiceHive()
        try hive.register(Catalog.self, scope: .singleton) { Catalog() }
        let inside = try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            try hive.resolve(Catalog.self)
        }
        #expect(try hive.resolve(Catalog.self) === inside)
    }

    // MARK: - Not too narrow

    @Test("a singleton of a second hive built from the overridden hive belongs to the overrides")
    func secondHiveSingletonDoesNotLeak() throws {
        let app = ServiceHive()
        try app.register(Clock.self) { SystemClock() }
        let feature = ServiceHive()
        try feature.register(Timed.self, scope: .singleton) { _ in Timed(clock: try app.resolve()) }

        let inside = try app.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            try feature.resolve(Timed.self)
        }
        #expect(inside.clock is MockClock)
        let outside = try feature.resolve(Timed.self)
        #expect(outside.clock is SystemClock, "the mock did not leak into the second hive")
        #expect(try feature.resolve(Timed.self) === outside)
    }

    @Test("a second hive's singleton cached before the overrides is rebuilt inside them, and kept outside")
    func secondHiveSingletonCachedBefore() throws {
        let app = ServiceHive()
        try app.register(Clock.self) { SystemClock() }
        let feature = ServiceHive()
        try feature.register(Timed.self, scope: .singleton) { _ in Timed(clock: try app.resolve()) }
        let before = try feature.resolve(Timed.self)

        try app.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try feature.resolve(Timed.self)
            #expect(inside !== before && inside.clock is MockClock)
            #expect(try feature.resolve(Timed.self) === inside, "shared within the overrides")
        }
        #expect(try feature.resolve(Timed.self) === before)
    }

    @Test("a chain through three hives makes the top singleton local")
    func chainThroughThreeHives() throws {
        let infrastructure = ServiceHive()
        try infrastructure.register(Clock.self) { SystemClock() }
        let domain = ServiceHive()
        try domain.register(TradeService.self) { _ in
            _ = try infrastructure.resolve(Clock.self)
            return LiveTradeService()
        }
        let feature = ServiceHive()
        try feature.register(Cart.self, scope: .singleton) { _ in LiveCart(trade: try domain.resolve()) }
        let before = try feature.resolve(Cart.self)

        let inside = try infrastructure.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            try feature.resolve(Cart.self)
        }
        #expect(inside as AnyObject !== before as AnyObject)
        #expect(try feature.resolve(Cart.self) as AnyObject === before as AnyObject)
    }

    // MARK: - What counts as used

    @Test("a conditional dependency counts: overriding the condition rebuilds, overriding the unused branch does not")
    func conditionalDependency() throws {
        let hive = ServiceHive()
        try hive.register(FeatureFlags.self) { FixedFlags(isEnabled: false) }
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Timed.self, scope: .singleton) { r in
            let flags = try r.resolve(FeatureFlags.self)
            return Timed(clock: flags.isEnabled ? try r.resolve(Clock.self) : SystemClock())
        }
        let before = try hive.resolve(Timed.self)

        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(Timed.self)
            #expect(inside === before, "the clock was not used while the flag was off")
        }
        try hive.withOverrides {
            $0.register(FeatureFlags.self) { FixedFlags(isEnabled: true) }
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(Timed.self)
            #expect(inside !== before && inside.clock is MockClock)
        }
        #expect(try hive.resolve(Timed.self) === before)
    }

    @Test("a lookup that failed counts: overrides that provide the missing service rebuild the singleton")
    func caughtFailureCounts() throws {
        let hive = ServiceHive()
        try hive.register(Timed.self, scope: .singleton) { r in
            let clock = (try? r.resolve(Clock.self)) ?? SystemClock()
            return Timed(clock: clock)
        }
        let before = try hive.resolve(Timed.self)
        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(Timed.self)
            #expect(inside.clock is MockClock)
        }
        #expect(try hive.resolve(Timed.self) === before)
    }

    @Test("a transient in the chain passes the dependency on: what it resolved counts for the singleton above")
    func transientInTheChain() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(TradeService.self) { r in
            _ = try r.resolve(Clock.self)
            return LiveTradeService()
        }
        try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
        let before = try hive.resolve(Cart.self)
        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(Cart.self)
            #expect(inside as AnyObject !== before as AnyObject)
        }
    }

    @Test("a factory that calls the hive directly, not its resolver, is tracked the same way")
    func directCallsAreTracked() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        // Unowned: a factory that holds its own hive strongly would keep it alive for ever.
        try hive.register(Timed.self, scope: .singleton) { [unowned hive] _ in Timed(clock: try hive.resolve()) }
        let before = try hive.resolve(Timed.self)
        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(Timed.self)
            #expect(inside.clock is MockClock)
        }
        #expect(try hive.resolve(Timed.self) === before)
    }

    // MARK: - Resolvers and tasks

    @Test("a kept resolver resolves with the overrides of the task that uses it, when it uses it")
    func keptResolver() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(LazyClock.self, scope: .singleton) { r in LazyClock(resolver: r) }
        let lazy = try hive.resolve(LazyClock.self)

        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let inside = try hive.resolve(LazyClock.self)
            let clock = try lazy.clock()
            #expect(inside === lazy, "its construction used no clock")
            #expect(clock is MockClock, "the resolver sees the overrides of the task using it")
        }
        #expect(try lazy.clock() is SystemClock)
    }

    @Test("child tasks share the overrides' instances, and build a local singleton once")
    func childTasks() async throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Timed.self, scope: .singleton) { r in
            builds.increment()
            return Timed(clock: try r.resolve())
        }
        let outside = try hive.resolve(Timed.self)
        let identities = try await within("the child tasks") {
            try await hive.withOverrides {
                $0.register(Clock.self) { MockClock() }
            } operation: {
                async let first = hive.resolve(Timed.self)
                // Child tasks that may wait for another's build: each on a thread of its own, not the pool's.
                let others = Set(
                    try await inTasksOnThreads(8, "the child tasks") { _ in
                        ObjectIdentifier(try hive.resolve(Timed.self))
                    })
                let fromTask = try await Task { try hive.resolve(Timed.self) }.value
                return others.union([ObjectIdentifier(try await first), ObjectIdentifier(fromTask)])
            }
        }
        #expect(identities.count == 1 && !identities.contains(ObjectIdentifier(outside)))
        #expect(builds.current == 2)
        #expect(try hive.resolve(Timed.self) === outside)
    }

    // MARK: - Graph and nesting

    @Test("a graph instance built inside overrides that a factory opened is not reused after them")
    func graphInstanceInsideFactoryOverrides() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { [unowned hive] r in
            let inside = try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                try r.resolve(Clock.self)
            }
            let after = try r.resolve(Clock.self)
            return LiveReport(header: inside, footer: after)
        }
        let report = try hive.resolve(Report.self)
        #expect(report.header !== report.footer)
    }

    @Test("nested overrides: an instance belongs to the innermost overrides it used, and outer ones keep theirs")
    func nestedOverrides() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(FeatureFlags.self) { FixedFlags(isEnabled: false) }
        try hive.register(Timed.self, scope: .singleton) { r in Timed(clock: try r.resolve()) }
        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let outer = try hive.resolve(Timed.self)
            try hive.withOverrides {
                $0.register(FeatureFlags.self) { FixedFlags(isEnabled: true) }
            } operation: {
                let inner = try hive.resolve(Timed.self)
                #expect(inner === outer, "the inner overrides are not used by it")
            }
            #expect(try hive.resolve(Timed.self) === outer)
        }
    }

    // MARK: - Overridden singletons

    @Test("an override registered as a singleton is built once in its overrides, and every resolve there returns it")
    func overrideSingletonIsBuiltOnce() async throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        let builds = Locked(0)
        let (first, again, fromTasks) = try await within("the resolves in the overrides") {
            try await hive.withOverrides {
                $0.register(Clock.self, scope: .singleton) { () -> any Clock in
                    builds.increment()
                    return MockClock()
                }
            } operation: {
                let first = try hive.resolve(Clock.self)
                let again = (0..<1_000).filter { _ in (try? hive.resolve(Clock.self)) !== first }.count
                // Child tasks that may wait for another's build: each on a thread of its own, not the pool's.
                let fromTasks = try await inTasksOnThreads(8, "the child tasks") { _ in
                    ObjectIdentifier(try hive.resolve(Clock.self))
                }
                return (first, again, fromTasks)
            }
        }
        #expect(first is MockClock)
        #expect(again == 0, "every resolve in the overrides returns the first")
        #expect(fromTasks == Array(repeating: ObjectIdentifier(first), count: 8))
        #expect(builds.current == 1)
        #expect(try hive.resolve(Clock.self) is SystemClock)
    }

    @Test("a singleton an outer override declares, built from what an inner override replaces, stays inside the inner")
    func outerOverrideBuiltFromInnerOne() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.withOverrides {
            $0.register(Timed.self, scope: .singleton) { r in Timed(clock: try r.resolve()) }
        } operation: {
            let inner = try hive.withOverrides {
                $0.register(Clock.self) { MockClock() }
            } operation: {
                let timed = try hive.resolve(Timed.self)
                #expect(timed.clock is MockClock)
                #expect(try hive.resolve(Timed.self) === timed)
                return timed
            }
            let outer = try hive.resolve(Timed.self)
            #expect(outer !== inner, "the inner overrides' mock must not outlive them")
            #expect(outer.clock is SystemClock)
            #expect(try hive.resolve(Timed.self) === outer)
        }
    }
}

// MARK: - Fixtures

/// A singleton with state, as a module's `start` would fill it.
final class Catalog: Sendable {
    private let contents = Locked<[String]>([])
    var items: [String] { contents.current }
    func add(_ item: String) { contents.withLock { $0.append(item) } }
}

final class MockClock: Clock {}

/// A service built from a clock.
final class Timed: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}

/// A singleton that keeps its resolver and resolves its clock on each use.
final class LazyClock: Sendable {
    let resolver: ServiceHive.Resolver
    init(resolver: ServiceHive.Resolver) { self.resolver = resolver }
    func clock() throws -> any Clock { try resolver.resolve() }
}
