import Foundation
import ServiceHive
import Support
import Testing

/// A database that takes a while to open.
protocol Database: Sendable {
    var name: String { get }
}

final class LiveDatabase: Database {
    let name: String
    init(name: String = "live") { self.name = name }

    static func connect(name: String = "live", milliseconds: UInt64 = 5) async throws -> LiveDatabase {
        try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
        return LiveDatabase(name: name)
    }
}

@Suite("Async factories", .timeLimit(.minutes(5)))
struct AsyncFactoryTests {
    @Test("an async singleton is built once, even when a hundred tasks ask for it at once")
    func exactlyOnce() async throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Database.self, scope: .singleton) { _ async throws in
            builds.increment()
            return try await LiveDatabase.connect(milliseconds: 20)
        }
        let identities = try await within("a hundred resolves of the singleton") {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<100 {
                    group.addTask { ObjectIdentifier(try await hive.resolveAsync(Database.self) as AnyObject) }
                }
                return try await group.reduce(into: Set()) { $0.insert($1) }
            }
        }
        #expect(identities.count == 1)
        #expect(builds.current == 1)
        #expect(try await hive.resolveAsync(Database.self).name == "live")
    }

    @Test("a synchronous resolve of an async registration fails and says how to fix it")
    func synchronousResolveFails() async throws {
        let hive = ServiceHive()
        try hive.register(Database.self, scope: .singleton) { _ async throws in try await LiveDatabase.connect() }
        _ = try await hive.resolveAsync(Database.self)  // even once it is built
        let thrown = error { _ = try hive.resolve(Database.self) }
        #expect(
            thrown?.description
                == "Database has an async factory, so it cannot be resolved synchronously. To fix, resolve it with "
                + "try await hive.resolveAsync(Database.self), or from an async factory's resolver.")
    }

    @Test("a cycle between async singletons fails with circularDependency instead of hanging")
    func asyncCycle() async throws {
        let hive = ServiceHive()
        try hive.register(Chicken.self, scope: .singleton) { r async throws in
            LiveChicken(egg: try await r.resolveAsync())
        }
        try hive.register(Egg.self, scope: .singleton) { r async throws in
            try await Task.sleep(nanoseconds: 1_000_000)
            return LiveEgg(chicken: try await r.resolveAsync())
        }
        let thrown = try await within("the cycle to fail") {
            await asyncError { _ = try await hive.resolveAsync(Chicken.self) }
        }
        #expect(thrown?.cycle == ["Chicken", "Egg", "Chicken"])
    }

    @Test("two tasks entering a cycle of async singletons from opposite ends both fail, and nothing hangs")
    func crossingAsyncCycle() async throws {
        for _ in 0..<20 {
            let hive = ServiceHive()
            try hive.register(Chicken.self, scope: .singleton) { r async throws in
                try await Task.sleep(nanoseconds: 2_000_000)
                return LiveChicken(egg: try await r.resolveAsync())
            }
            try hive.register(Egg.self, scope: .singleton) { r async throws in
                try await Task.sleep(nanoseconds: 2_000_000)
                return LiveEgg(chicken: try await r.resolveAsync())
            }
            let cycles = try await within("both ends of the cycle to fail") {
                async let first = asyncError { _ = try await hive.resolveAsync(Chicken.self) }
                async let second = asyncError { _ = try await hive.resolveAsync(Egg.self) }
                return [await first, await second].compactMap { $0?.cycle }
            }
            #expect(cycles.count == 2)
        }
    }

    @Test("a cancelled waiter neither cancels nor fails the construction for the others")
    func cancellationDoesNotPoison() async throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        let (started, proceed) = (Gate(), Gate())
        try hive.register(Database.self, scope: .singleton) { _ async throws in
            builds.increment()
            started.open()
            try await proceed.opened("the test to cancel the first resolve")
            try Task.checkCancellation()  // throws if the construction was cancelled
            return LiveDatabase()
        }
        try await within("the two resolves") {
            let cancelled = Task { try await hive.resolveAsync(Database.self) }
            try await started.opened("the first resolve to start the construction")
            let other = Task { try await hive.resolveAsync(Database.self) }
            cancelled.cancel()
            proceed.open()
            let fromOther = try await other.value
            let fromCancelled = try await cancelled.value
            #expect(fromOther.name == "live" && (fromCancelled as AnyObject) === (fromOther as AnyObject))
        }
        #expect(builds.current == 1)
    }

    @Test("an async factory that throws caches nothing, and the next resolve builds again")
    func failureCachesNothing() async throws {
        let hive = ServiceHive()
        let attempts = Locked(0)
        try hive.register(Database.self, scope: .singleton) { _ async throws in
            if attempts.increment() == 1 { throw DatabaseOffline() }
            return LiveDatabase()
        }
        let thrown = await asyncError { _ = try await hive.resolveAsync(Database.self) }
        #expect(
            thrown?.description
                == "The factory for Database threw: database offline. To fix, make the factory succeed; nothing was "
                + "cached, so the next resolve runs it again.")
        #expect(try await hive.resolveAsync(Database.self).name == "live")
        #expect(attempts.current == 2)
    }

    @Test("an async factory resolves synchronous and async dependencies; resolveAsync resolves synchronous ones too")
    func mixedDependencies() async throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        try hive.register(Database.self, scope: .singleton) { r async throws in
            _ = try r.resolve(Clock.self)
            return try await LiveDatabase.connect()
        }
        try hive.register(TradeService.self) { r async throws in
            let database = try await r.resolveAsync(Database.self)
            return LiveTradeService(label: database.name)
        }
        #expect(try await hive.resolveAsync(TradeService.self).label == "live")
        #expect(try await hive.resolveAsync(Clock.self) === (try hive.resolve(Clock.self)))
    }

    @Test("an async singleton built from an overridden service belongs to the overrides")
    func asyncSingletonAndOverrides() async throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Database.self, scope: .singleton) { r async throws in
            let clock = try r.resolve(Clock.self)
            return LiveDatabase(name: clock is MockClock ? "mock" : "live")
        }
        let outside = try await hive.resolveAsync(Database.self)
        let inside = try await hive.withOverrides {
            $0.register(Clock.self) { MockClock() }
        } operation: {
            try await hive.resolveAsync(Database.self)
        }
        #expect(outside.name == "live" && inside.name == "mock")
        #expect(try await hive.resolveAsync(Database.self) as AnyObject === outside as AnyObject)
    }

    @Test("an async factory registered .weak is refused with a clear error")
    func weakIsRefused() throws {
        let hive = ServiceHive()
        let thrown = error {
            try hive.register(Database.self, scope: .weak) { _ async throws in LiveDatabase() }
        }
        #expect(
            thrown?.description
                == "Database cannot be registered: an async factory cannot build a .weak instance. To fix, register "
                + "it as .singleton, or in a named scope, or give it a synchronous factory.")
    }
}

@Suite("Async factories and precise overrides", .timeLimit(.minutes(5)))
struct AsyncFactoryOverrideTests {
    @Test("an async singleton that resolves an overridden service of another hive directly stays inside the scope")
    func directResolveOfAnotherHive() async throws {
        let app = ServiceHive()
        try app.register(Clock.self) { SystemClock() }
        let feature = ServiceHive()
        try feature.register(Database.self, scope: .singleton) { _ async throws in
            LiveDatabase(name: try app.resolve(Clock.self) is MockClock ? "mock" : "live")
        }
        let inside = try await within("the resolve inside the overrides") {
            try await app.withOverrides {
                $0.register(Clock.self) { MockClock() }
            } operation: {
                try await feature.resolveAsync(Database.self)
            }
        }
        let outside = try await feature.resolveAsync(Database.self)
        #expect(inside.name == "mock")
        #expect(outside.name == "live")
        #expect(try await feature.resolveAsync(Database.self) as AnyObject === outside as AnyObject)
    }

    @Test("an async singleton that resolves an overridden service with runtime arguments stays inside the scope")
    func argumentResolve() async throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Database.self, scope: .singleton) { r async throws in
            LiveDatabase(name: try r.resolve(Greeter.self, arguments: "db").greeting)
        }
        let inside = try await within("the resolve inside the overrides") {
            try await hive.withOverrides {
                $0.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in
                    LiveGreeter(name: "mock \(name)")
                }
            } operation: {
                try await hive.resolveAsync(Database.self)
            }
        }
        let outside = try await hive.resolveAsync(Database.self)
        #expect(inside.name == "Hello, mock db!")
        #expect(outside.name == "Hello, db!")
    }

    @Test("what an async singleton's factory resolves in its child tasks counts for the singleton")
    func childTasksOfTheFactory() async throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Database.self, scope: .singleton) { r async throws in
            let isMock = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try r.resolve(Clock.self) is MockClock }
                return try await group.next() ?? false
            }
            return LiveDatabase(name: isMock ? "mock" : "live")
        }
        let inside = try await within("the resolve inside the overrides") {
            try await hive.withOverrides {
                $0.register(Clock.self) { MockClock() }
            } operation: {
                try await hive.resolveAsync(Database.self)
            }
        }
        #expect(inside.name == "mock")
        #expect(try await hive.resolveAsync(Database.self).name == "live")
    }

    @Test("a synchronous factory resolved from an async singleton's factory records its own dependencies too")
    func nestedSynchronousSingleton() async throws {
        let app = ServiceHive()
        try app.register(Clock.self) { SystemClock() }
        try app.register(TradeService.self, scope: .singleton) { r in
            LiveTradeService(label: try r.resolve(Clock.self) is MockClock ? "mock" : "live")
        }
        let feature = ServiceHive()
        try feature.register(Database.self, scope: .singleton) { _ async throws in
            LiveDatabase(name: try app.resolve(TradeService.self).label)
        }
        let inside = try await within("the resolves inside the overrides") {
            try await app.withOverrides {
                $0.register(Clock.self) { MockClock() }
            } operation: {
                (try await feature.resolveAsync(Database.self), try app.resolve(TradeService.self))
            }
        }
        #expect(inside.0.name == "mock" && inside.1.label == "mock")
        #expect(try await feature.resolveAsync(Database.self).name == "live")
        #expect(try app.resolve(TradeService.self).label == "live")
    }
}
