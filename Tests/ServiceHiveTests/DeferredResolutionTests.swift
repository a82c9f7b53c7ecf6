import ServiceHive
import Support
import Testing

/// A service that keeps a lazy clock and a clock provider.
final class Scheduler: Sendable {
    let lazyClock: ServiceHive.Lazy<Clock>
    let clocks: ServiceHive.Provider<Clock>
    init(lazyClock: ServiceHive.Lazy<Clock>, clocks: ServiceHive.Provider<Clock>) {
        self.lazyClock = lazyClock
        self.clocks = clocks
    }
}

@Suite("Lazy and Provider", .timeLimit(.minutes(5)))
struct DeferredResolutionTests {
    @Test("a Lazy resolves on first use, then keeps its instance; a Provider resolves on every use")
    func lazyAndProvider() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Clock.self) {
            builds.increment()
            return SystemClock()
        }
        try hive.register(Scheduler.self, scope: .singleton) { r in
            Scheduler(lazyClock: try r.resolve(), clocks: try r.resolve())
        }
        let scheduler = try hive.resolve(Scheduler.self)
        #expect(builds.current == 0, "nothing resolved yet")
        let first = try scheduler.lazyClock.instance
        #expect(try scheduler.lazyClock.instance === first)
        #expect(builds.current == 1)
        #expect(try scheduler.clocks.instance !== scheduler.clocks.instance)
        #expect(builds.current == 3)
    }

    @Test("a Lazy or a Provider breaks a construction cycle that is otherwise an error")
    func breaksCycles() throws {
        let hive = ServiceHive()
        try hive.register(Chicken.self, scope: .singleton) { r in
            LazyChicken(egg: try r.resolve(ServiceHive.Lazy<Egg>.self))
        }
        try hive.register(Egg.self, scope: .singleton) { r in LiveEgg(chicken: try r.resolve()) }
        let chicken = try hive.resolve(Chicken.self) as! LazyChicken
        let egg = try chicken.egg.instance
        #expect(egg as AnyObject === (try hive.resolve(Egg.self)) as AnyObject)
    }

    @Test("a Lazy sees the overrides of the task that first uses it, at that moment")
    func overridesAtFirstUse() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        let lazy = try hive.resolve(ServiceHive.Lazy<Clock>.self)
        let provider = try hive.resolve(ServiceHive.Provider<Clock>.self)
        try hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            let clock = try lazy.instance
            let provided = try provider.instance
            #expect(clock is MockClock && provided is MockClock)
        }
        #expect(try lazy.instance is MockClock, "kept")
        #expect(try provider.instance is SystemClock, "resolved again, outside")
    }

    @Test("a Lazy read first from many threads at once keeps one instance, which every thread gets")
    func lazyAcrossThreads() async throws {
        for round in 0..<20 {
            let hive = ServiceHive()
            try hive.register(Clock.self) { SystemClock() }
            let lazy = try hive.resolve(ServiceHive.Lazy<Clock>.self)
            let seen = try await onThreads(8, "round \(round)") { _ in ObjectIdentifier(try lazy.instance) }
            #expect(Set(seen).count == 1, "round \(round)")
        }
    }

    @Test("a Lazy of a service that is not registered throws notRegistered when used, naming the service")
    func lazyOfMissing() throws {
        let hive = ServiceHive()
        let lazy = try hive.resolve(ServiceHive.Lazy<Clock>.self, name: "utc")
        let thrown = error { _ = try lazy.instance }
        #expect(thrown?.description.hasPrefix("Clock (name: \"utc\") is not registered.") == true)
    }
}

final class LazyChicken: Chicken {
    let egg: ServiceHive.Lazy<Egg>
    init(egg: ServiceHive.Lazy<Egg>) { self.egg = egg }
}
