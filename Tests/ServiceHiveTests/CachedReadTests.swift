import Support
import Synchronization
import Testing

@testable import ServiceHive

// A resolve that its thread has found cached before takes no lock: counted through the family lock's acquisitions,
// which debug builds keep. And every change that returns is seen by the resolves that start after it.

private protocol Meter: AnyObject, Sendable { var reading: Int { get } }
private final class LiveMeter: Meter, Sendable {
    let reading: Int
    init(_ reading: Int = 0) { self.reading = reading }
}
/// Not `Sendable`: resolved through the general entry point, where `any Meter` takes the `Sendable` one.
private final class Notebook {}
private protocol Gauge: Sendable { var meter: any Meter { get } }
/// Not class-bound: its existential is five words, the most a `.weak` instance keeps inline.
private protocol Dial: Sendable { var position: Int { get } }
private protocol Labeled { var label: String { get } }
/// An error that is a class: `any Error` holds it in a box of its own.
private final class FailingMeter: Error, Sendable {
    let reading: Int
    init(_ reading: Int) { self.reading = reading }
}
private final class LiveDial: Dial, Labeled, Sendable {
    let position: Int
    var label: String { "dial \(position)" }
    init(_ position: Int) { self.position = position }
}
private struct LiveGauge: Gauge { let meter: any Meter }

#if DEBUG
@Suite("Cached reads take no lock", .timeLimit(.minutes(5)))
struct CachedReadTests {
    /// How many times `hive`'s family lock is taken by 10,000 runs of `resolve` on this thread, after three runs: one
    /// that builds the instance, one that finds it cached under the lock and keeps the answer (a forward converts and
    /// caches its target on the second when another thread was recording a construction during the first, as other
    /// tests may be). Synchronous, so the runs stay on one thread.
    private func acquisitions(_ hive: ServiceHive, _ resolve: () throws -> Void) rethrows -> Int {
        for _ in 0..<3 { try resolve() }
        let before = hive.core.family.acquisitions.load(ordering: .relaxed)
        for _ in 0..<10_000 { try resolve() }
        return hive.core.family.acquisitions.load(ordering: .relaxed) - before
    }

    /// `acquisitions` for an async `resolve`, run by one task on a thread of its own, so that the runs stay on it.
    private func asyncAcquisitions(
        _ hive: ServiceHive, _ resolve: @escaping @Sendable () async throws -> Void
    ) async throws -> Int {
        let counts = try await inTasksOnThreads(1, "the resolving task") { _ in
            for _ in 0..<3 { try await resolve() }
            let before = hive.core.family.acquisitions.load(ordering: .relaxed)
            for _ in 0..<10_000 { try await resolve() }
            return hive.core.family.acquisitions.load(ordering: .relaxed) - before
        }
        return counts[0]
    }

    /// Checks that an override scope, and then a trace, started after this thread kept its answer for `any Meter`
    /// in `hive`, whose `reading` is `kept`, are both seen by the next resolve: the override's meter reads 100 inside
    /// its scope, and the resolve after the trace starts is traced.
    private func expectOverrideAndTraceSeen(
        in hive: ServiceHive, reading: () throws -> Int, kept: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let overridden = try hive.withOverrides {
            $0.register((any Meter).self) { LiveMeter(100) }
        } operation: {
            try reading()
        }
        #expect(overridden == 100, sourceLocation: sourceLocation)
        #expect(try reading() == kept, sourceLocation: sourceLocation)
        let traced = Locked<[String]>([])
        hive.trace = { trace in traced.withLock { $0.append(trace.description) } }
        #expect(try reading() == kept, sourceLocation: sourceLocation)
        hive.trace = nil
        #expect(
            traced.withLock { $0.count } == 1, "the resolve after the trace started was traced",
            sourceLocation: sourceLocation)
    }

    @Test("10,000 resolves of a cached singleton take the family lock 0 times")
    func singleton() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter() }
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
    }

    @Test("the same holds for a named-scope instance, a named registration and a service that isn't Sendable")
    func namedAndSendable() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .named("session")) { LiveMeter() }
        try hive.register((any Meter).self, name: "backup", scope: .singleton) { LiveMeter(1) }
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self, name: "backup") } == 0)
        try hive.register(Notebook.self, scope: .singleton) { Notebook() }
        #expect(try acquisitions(hive) { _ = try hive.resolve(Notebook.self) } == 0)
    }

    @Test("two services whose answers hash to the same first place are both kept, resolved in turns")
    func collidingServices() async throws {
        let hive = ServiceHive()
        // 64 services for 32 first places of plain answers: many pairs share one, and of those, some don't share their
        // second place too.
        var services: [ObjectIdentifier: ServiceActions] = [:]
        collectServices(Nested<Int>.self, count: 64, hive: hive, into: &services)
        func place(_ service: ObjectIdentifier, _ way: Int) -> Int {
            ThreadAnswers.index(of: service, isPlain: true, way: way)
        }
        let keys = Array(services.keys)
        #expect(keys.allSatisfy { place($0, 0) != place($0, 1) }, "a key's second place is never its first")
        let pair = keys.indices.lazy.flatMap { i in keys[..<i].lazy.map { (keys[i], $0) } }
            .first { place($0, 0) == place($1, 0) && place($0, 1) != place($1, 1) }
        let (first, second) = try #require(pair)
        try services[first]!.register()
        try services[second]!.register()
        // On a thread of its own, whose answers start empty: on a thread that other tests used, the second places may
        // hold their answers, and then the two take turns in their shared first place, as designed.
        let (resolveFirst, resolveSecond) = (services[first]!.resolve, services[second]!.resolve)
        let count = try await onThreads(1, "a thread with no answers yet") { _ in
            try acquisitions(hive) {
                try resolveFirst()
                try resolveSecond()
            }
        }
        #expect(count == [0])
    }

    @Test("the same holds for a forwarded key to a singleton")
    func forwarded() throws {
        let hive = ServiceHive()
        try hive.register(LiveMeter.self, scope: .singleton) { LiveMeter() }
        try hive.forward((any Meter).self, to: LiveMeter.self) { $0 }
        let count = try acquisitions(hive) { _ = try hive.resolve((any Meter).self) }
        #expect(count == 0)
    }

    @Test("the same holds for a parent's singleton resolved from a child hive")
    func parentFromChild() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter() }
        // A child uses its parent's answer only while the bit of the service is clear in its own registrations' mask:
        // it provides a type whose bit differs from the meter's, which depends on where their metadata lie.
        let meter = ServiceMask.bit(of: ObjectIdentifier((any Meter).self))
        let provisions: [(bit: UInt64, provide: (inout ServiceHive.Provisions) -> Void)] = [
            (ServiceMask.bit(of: ObjectIdentifier(Int.self)), { $0.provide(Int.self, 7) }),
            (ServiceMask.bit(of: ObjectIdentifier(String.self)), { $0.provide(String.self, "7") }),
            (ServiceMask.bit(of: ObjectIdentifier(Double.self)), { $0.provide(Double.self, 7) }),
        ]
        let provide = try #require(provisions.first { $0.bit != meter }).provide
        let child = hive.child { provide(&$0) }
        #expect(try acquisitions(hive) { _ = try child.resolve((any Meter).self) } == 0)
        #expect(try child.resolve((any Meter).self) === hive.resolve((any Meter).self))
    }

    @Test("the same holds for resolveAsync of a cached singleton, on one thread")
    func async() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter() }
        #expect(try await asyncAcquisitions(hive) { _ = try await hive.resolveAsync((any Meter).self) } == 0)
    }

    @Test("the same holds for a collection's snapshot, from the hive, from a child hive and with resolveAllAsync")
    func collection() async throws {
        let hive = ServiceHive()
        try hive.contribute((any Meter).self, scope: .singleton) { LiveMeter(1) }
        try hive.contribute((any Meter).self, instance: LiveMeter(2))
        #expect(try acquisitions(hive) { _ = try hive.resolveAll((any Meter).self) } == 0)
        #expect(try hive.resolveAll((any Meter).self).map(\.reading) == [1, 2])
        let child = hive.child()
        #expect(try acquisitions(hive) { _ = try child.resolveAll((any Meter).self) } == 0)
        #expect(try await asyncAcquisitions(hive) { _ = try await hive.resolveAllAsync((any Meter).self) } == 0)
    }

    @Test("a collection's kept snapshot gives way to every change of its contributions")
    func collectionChanges() async throws {
        let hive = ServiceHive()
        try hive.contribute((any Meter).self, name: "first", scope: .singleton) { LiveMeter(1) }
        func readings(_ from: ServiceHive = hive) throws -> [Int] {
            try from.resolveAll((any Meter).self).map(\.reading)
        }
        #expect(try readings() == [1] && readings() == [1])

        // A contribution added, from this thread and from another.
        try hive.contribute((any Meter).self, name: "second", instance: LiveMeter(2))
        #expect(try readings() == [1, 2])
        _ = try await onThreads(1, "the contributing thread") { _ in
            try hive.contribute((any Meter).self, name: "third", instance: LiveMeter(3))
        }
        #expect(try readings() == [1, 2, 3])

        // A child that contributes its own: its resolves see it, the parent's don't.
        let child = hive.child()
        #expect(try readings(child) == [1, 2, 3] && readings(child) == [1, 2, 3])
        try child.contribute((any Meter).self, name: "fourth", instance: LiveMeter(4))
        #expect(try readings(child) == [1, 2, 3, 4])
        #expect(try readings() == [1, 2, 3])

        // A singleton contribution reset: its instance is let go, and the next resolve builds another.
        weak let first = try hive.resolveAll((any Meter).self).first as? LiveMeter
        hive.resetInstances()
        #expect(first == nil, "neither the snapshot nor a kept answer holds the reset instance")
        #expect(try readings() == [1, 2, 3])

        // A contribution removed, and an override scope started after the answer was kept.
        #expect(hive.removeContribution((any Meter).self, name: "second"))
        #expect(try readings() == [1, 3])
        let overridden = try hive.withOverrides {
            $0.contribute((any Meter).self, instance: LiveMeter(5))
        } operation: {
            try readings()
        }
        #expect(overridden == [1, 3, 5])
        #expect(try readings() == [1, 3])
    }

    @Test("the same holds inside overrides: a mock singleton, one built from a mock, and one the mock left alone")
    func insideOverrides() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        try hive.register((any Gauge).self, scope: .singleton) { LiveGauge(meter: try $0.resolve()) }
        try hive.register(Notebook.self, scope: .singleton) { Notebook() }
        _ = try hive.resolve((any Gauge).self)
        let (counts, reading) = try hive.withOverrides {
            $0.register((any Meter).self, scope: .singleton) { LiveMeter(2) }
        } operation: { () throws -> ([Int], Int) in
            let counts = try [
                acquisitions(hive) { _ = try hive.resolve((any Meter).self) },
                acquisitions(hive) { _ = try hive.resolve((any Gauge).self) },
                acquisitions(hive) { _ = try hive.resolve(Notebook.self) },
            ]
            return (counts, try hive.resolve((any Gauge).self).meter.reading)
        }
        #expect(counts == [0, 0, 0])
        #expect(reading == 2, "the layer's own gauge, built from the mock")
    }

    @Test("the same holds outside overrides while another task's override scope is alive")
    func besideOverrides() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        let counts = try await whileAnotherTaskOverrides(hive, with: { LiveMeter(2) }) {
            try await onThreads(1, "the resolving thread") { _ in
                try acquisitions(hive) { _ = try hive.resolve((any Meter).self) }
            }
        }
        #expect(counts == [0])
    }

    /// Runs `body` while another task is inside an override scope of `hive` that overrides the meter with `mock`, as a
    /// `.weak` registration.
    private func whileAnotherTaskOverrides<Result: Sendable>(
        _ hive: ServiceHive, with mock: @escaping @Sendable () -> LiveMeter,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let inside = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let scope = Task {
            await hive.withOverrides {
                $0.register((any Meter).self, scope: .weak) { mock() }
            } operation: {
                inside.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in inside.stream { break }
        let result: Result
        do {
            result = try await body()
        } catch {
            release.continuation.yield()
            throw error
        }
        release.continuation.yield()
        await scope.value
        return result
    }

    @Test("an answer kept inside one override scope serves no other scope, and none outside")
    func overrideScopesApart() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        try hive.register((any Gauge).self, scope: .singleton) { LiveGauge(meter: try $0.resolve()) }
        @Sendable func reading() throws -> Int { try hive.resolve((any Gauge).self).meter.reading }
        func mock(_ reading: Int) -> (inout ServiceHive.Overrides) -> Void {
            { overrides in overrides.register((any Meter).self, scope: .singleton) { LiveMeter(reading) } }
        }
        #expect(try reading() == 1 && reading() == 1)
        for round in 2..<40 {
            let (first, nested, again) = try hive.withOverrides(mock(round)) {
                let first = try [reading(), reading()]
                let nested = try hive.withOverrides(mock(-round)) { try [reading(), reading()] }
                return (first, nested, try [reading(), reading()])
            }
            #expect(first == [round, round] && nested == [-round, -round] && again == [round, round])
            #expect(try reading() == 1)
        }
        // From a task that inherits the scope, and from one that doesn't, on the same thread's answers.
        let inherited = try await hive.withOverrides(mock(50)) {
            _ = try reading()
            return try await onThreads(1, "the thread") { _ in try reading() }
        }
        #expect(inherited == [1], "a plain thread is outside the scope")
        let inTask = try await hive.withOverrides(mock(60)) {
            _ = try reading()
            return try await Task { try reading() }.value
        }
        #expect(inTask == 60)
    }

    @Test("the same holds for a live .weak instance, of every kind of service type a weak instance can be")
    func weakInstances() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .weak) { LiveMeter(1) }
        try hive.register(LiveMeter.self, scope: .weak) { LiveMeter(2) }
        try hive.register((any Dial).self, scope: .weak) { LiveDial(3) }
        try hive.register((any Dial & Labeled).self, scope: .weak) { LiveDial(4) }  // too large for the bits: cast
        try hive.register(Any.self, scope: .weak) { LiveMeter(5) }
        try hive.register(AnyObject.self, scope: .weak) { LiveMeter(6) }
        try hive.register(Nested<Int>.self, scope: .weak) { Nested<Int>() }
        try hive.register((any Error).self, scope: .weak) { FailingMeter(7) }  // a box around the object: cast
        let held: [AnyObject] = [
            try hive.resolve((any Meter).self), try hive.resolve(LiveMeter.self),
            try hive.resolve((any Dial).self) as AnyObject, try hive.resolve((any Dial & Labeled).self) as AnyObject,
            try hive.resolve(Any.self) as AnyObject, try hive.resolve(AnyObject.self),
            try hive.resolve(Nested<Int>.self),
            try hive.resolve((any Error).self) as AnyObject,
        ]
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve(LiveMeter.self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Dial).self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Dial & Labeled).self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve(Any.self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve(AnyObject.self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve(Nested<Int>.self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Error).self) } == 0)
        // What the resolves read without the lock is the service as built: the same object, and usable as the service.
        #expect(try hive.resolve((any Meter).self) === held[0] && hive.resolve((any Meter).self).reading == 1)
        #expect(try hive.resolve(LiveMeter.self) === held[1] && hive.resolve(LiveMeter.self).reading == 2)
        #expect(
            try hive.resolve((any Dial).self) as AnyObject === held[2] && hive.resolve((any Dial).self).position == 3)
        let wide = try hive.resolve((any Dial & Labeled).self)
        #expect(wide as AnyObject === held[3] && wide.position == 4 && wide.label == "dial 4")
        #expect(try (hive.resolve(Any.self) as? LiveMeter) === held[4] && held[4] is LiveMeter)
        #expect(try hive.resolve(AnyObject.self) === held[5] && (held[5] as? LiveMeter)?.reading == 6)
        #expect(try hive.resolve(Nested<Int>.self) === held[6])
        let error = try hive.resolve((any Error).self)
        #expect(error as AnyObject === held[7] && (error as? FailingMeter)?.reading == 7)
    }

    @Test("a .weak instance's kept answer serves no override scope, even one that starts while others are alive")
    func weakBesideOverrides() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .weak) { LiveMeter(1) }
        // Another task's scope is alive first, so that the scopes below change no stamp when they start: only the
        // answer's layers can tell it from theirs.
        let readings = try await whileAnotherTaskOverrides(hive, with: { LiveMeter(2) }) {
            try await onThreads(1, "the resolving thread") { _ in
                let meter = try hive.resolve((any Meter).self)
                let kept = try acquisitions(hive) { _ = try hive.resolve((any Meter).self) }
                let overridden = try hive.withOverrides {
                    $0.register((any Meter).self, scope: .weak) { LiveMeter(3) }
                } operation: {
                    try hive.resolve((any Meter).self).reading
                }
                return [kept, meter.reading, overridden, try hive.resolve((any Meter).self) === meter ? 1 : 0]
            }
        }
        #expect(readings == [[0, 1, 3, 1]])
    }

    @Test("a .weak instance whose object is released is built again, though the thread kept its answer")
    func weakReleasedIsBuiltAgain() throws {
        let hive = ServiceHive()
        let built = Locked(0)
        try hive.register((any Meter).self, scope: .weak) {
            LiveMeter(
                built.withLock { count in
                    count += 1
                    return count
                })
        }
        var meter: (any Meter)? = try hive.resolve((any Meter).self)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
        weak let first = meter as? LiveMeter
        meter = nil
        #expect(first == nil, "the kept answer holds no reference")
        let again = try hive.resolve((any Meter).self)
        #expect(again.reading == 2)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
        #expect(try hive.resolve((any Meter).self) === again && built.withLock { $0 } == 2)
    }

    @Test("threads read .weak instances while their objects are released, built again and reset")
    func weakUnderChurn() async throws {
        let hive = ServiceHive()
        let generation = Locked(0)
        try hive.register((any Meter).self, scope: .weak) {
            LiveMeter(
                generation.withLock { count in
                    count += 1
                    return count
                })
        }
        try hive.register((any Dial).self, scope: .weak) { LiveDial(2) }
        let wrong = try await onThreads(4, "the reading threads") { thread in
            var wrong = 0
            var held: [AnyObject] = []
            for round in 0..<20_000 {
                let meter = try hive.resolve((any Meter).self)
                let dial = try hive.resolve((any Dial).self)
                if meter.reading < 1 || dial.position != 2 { wrong += 1 }
                // Held for a few rounds, then let go: the objects die and are built again, on every thread.
                if round % 4 == 0 { held = [meter, dial as AnyObject] } else if round % 4 == 3 { held = [] }
                if thread == 0, round % 500 == 0 {
                    // A reset drops the instance even while it is held: the next resolve builds a later generation.
                    hive.resetInstances(of: (any Meter).self)
                    if try hive.resolve((any Meter).self).reading <= meter.reading { wrong += 1 }
                }
            }
            withExtendedLifetime(held) {}
            return wrong
        }
        #expect(wrong == [0, 0, 0, 0])
        #expect(generation.withLock { $0 } > 40, "the meter was built again after each reset at least")
    }

    @Test("a resolve with arguments still takes the lock every time, so the count can see one")
    func argumentsAreCounted() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self) { (_: ServiceHive.Resolver, reading: Int) in LiveMeter(reading) }
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self, arguments: 1) } >= 10_000)
    }

    @Test("10,000 resolves of a transient take the family lock 0 times, from the hive, a child and by name")
    func transient() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self) { LiveMeter() }
        try hive.register((any Meter).self, name: "spare") { LiveMeter(1) }
        try hive.register(Notebook.self) { Notebook() }
        let child = hive.child()
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self) } == 0)
        #expect(try acquisitions(hive) { _ = try child.resolve((any Meter).self) } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve((any Meter).self, name: "spare") } == 0)
        #expect(try acquisitions(hive) { _ = try hive.resolve(Notebook.self) } == 0)
        // Each a new instance, built by the registration's factory.
        #expect(try hive.resolve((any Meter).self) !== hive.resolve((any Meter).self))
        #expect(try hive.resolve((any Meter).self, name: "spare").reading == 1)
    }

    @Test("a transient with a singleton dependency takes the lock 0 times, and so does its dependency's resolve")
    func transientWithDependency() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(3) }
        try hive.register((any Gauge).self) { r in LiveGauge(meter: try r.resolve()) }
        // On a thread of its own, whose answers start empty: each resolve keeps two answers, and on a thread that other
        // tests used, both places of one may hold other tests' answers, where the two would replace each other.
        let counts = try await onThreads(1, "a thread with no answers yet") { _ in
            try acquisitions(hive) { _ = try hive.resolve((any Gauge).self) }
        }
        #expect(counts == [0])
        #expect(try hive.resolve((any Gauge).self).meter === hive.resolve((any Meter).self))
    }

    @Test("every change seen by the next resolve of a transient that the thread kept before it")
    func transientChangesAreSeen() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self) { LiveMeter(1) }
        let child = hive.child()
        func reading(_ from: ServiceHive = hive) throws -> Int { try from.resolve((any Meter).self).reading }
        #expect(try reading() == 1 && reading() == 1 && reading(child) == 1 && reading(child) == 1)

        // Registered by the child: the child's resolves see it, the parent's don't.
        try child.register((any Meter).self) { LiveMeter(2) }
        #expect(try reading(child) == 2)
        #expect(try reading() == 1)

        // Replaced in the parent, by a transient, then by a singleton.
        hive.unregister((any Meter).self)
        try hive.register((any Meter).self) { LiveMeter(3) }
        #expect(try reading() == 3 && reading() == 3)
        hive.unregister((any Meter).self)
        #expect(throws: ServiceHiveError.self) { try reading() }
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(4) }
        #expect(try hive.resolve((any Meter).self) === hive.resolve((any Meter).self))
        hive.unregister((any Meter).self)
        try hive.register((any Meter).self) { LiveMeter(5) }
        #expect(try reading() == 5 && reading() == 5)

        try expectOverrideAndTraceSeen(in: hive, reading: { try reading() }, kept: 5)
    }

    @Test("a transient kept while another thread's override scope is alive serves no override scope that starts later")
    func transientUnderLaterScope() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self) { LiveMeter(1) }
        try hive.register(Notebook.self) { Notebook() }
        let holding = Atomic<Bool>(false), done = Atomic<Bool>(false)
        let readings = try await onThreads(2, "a thread in an override scope, and one that reads") { index -> [Int] in
            let deadline = ContinuousClock.now + .seconds(60)
            func wait(for flag: borrowing Atomic<Bool>) throws {
                while !flag.load(ordering: .acquiring) {
                    guard ContinuousClock.now < deadline else { throw CancellationError() }
                }
            }
            if index == 0 {
                // Holds a scope open, so that the family has a live layer before the other thread keeps its answer,
                // and none starts first in it afterwards.
                try hive.withOverrides {
                    $0.register(Notebook.self) { Notebook() }
                } operation: {
                    holding.store(true, ordering: .releasing)
                    try wait(for: done)
                }
                return []
            }
            defer { done.store(true, ordering: .releasing) }
            try wait(for: holding)
            var seen = try (0..<3).map { _ in try hive.resolve((any Meter).self).reading }  // kept after the first
            seen.append(
                try hive.withOverrides {
                    $0.register((any Meter).self) { LiveMeter(2) }
                } operation: {
                    try hive.resolve((any Meter).self).reading
                })
            seen.append(try hive.resolve((any Meter).self).reading)
            return seen
        }
        #expect(readings[1] == [1, 1, 1, 2, 1])
    }

    @Test("a transient kept for a resolve of any P is still refused to a resolve of any P & Sendable")
    func transientKeepsSendability() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad).self) { PlainNotepad() }
        for _ in 0..<3 { #expect(try hive.resolve((any Notepad).self) is PlainNotepad) }
        let refused = error { _ = try hive.resolve((any Notepad & Sendable).self) }
        guard case .notSendable? = refused else {
            Issue.record("expected notSendable, got \(String(describing: refused))")
            return
        }
    }

    @Test("a transient's registration replaced is let go, though this thread kept it, and the new one builds")
    func transientEntryLetGo() throws {
        final class Token: Sendable {}
        let hive = ServiceHive()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            try hive.register((any Meter).self) { withExtendedLifetime(token) { LiveMeter(1) } }
        }
        for _ in 0..<3 { #expect(try hive.resolve((any Meter).self).reading == 1) }  // kept after the first
        #expect(released != nil)
        hive.unregister((any Meter).self)
        #expect(released == nil, "the kept answer holds no reference to the registration")
        try hive.register((any Meter).self) { LiveMeter(2) }
        #expect(try hive.resolve((any Meter).self).reading == 2)
    }

    @Test("an instance reset on one thread is let go, though another thread read it without the lock")
    func resetLetsGo() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter() }
        weak var first: LiveMeter?
        let identity = try await onThreads(1, "the reading thread") { _ in
            for _ in 0..<3 { _ = try hive.resolve((any Meter).self) }  // kept by that thread after the first
            return ObjectIdentifier(try hive.resolve((any Meter).self))
        }
        first = try hive.resolve((any Meter).self) as? LiveMeter
        #expect(first.map(ObjectIdentifier.init) == identity.first)
        hive.resetInstances(of: (any Meter).self)
        #expect(first == nil, "the reading thread's kept answer holds no reference")
        let again = try await onThreads(1, "the reading thread") { _ in
            ObjectIdentifier(try hive.resolve((any Meter).self))
        }
        #expect(again != identity)
    }

    @Test("every change seen by the next resolve of a thread that kept the answer before it")
    func changesAreSeen() async throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        let child = hive.child()
        func reading(_ from: ServiceHive = hive) throws -> Int { try from.resolve((any Meter).self).reading }
        #expect(try reading() == 1 && reading() == 1 && reading(child) == 1 && reading(child) == 1)

        // Registered by the child: the child's resolves see it, the parent's don't.
        try child.register((any Meter).self, scope: .singleton) { LiveMeter(2) }
        #expect(try reading(child) == 2)
        #expect(try reading() == 1)

        // Replaced in the parent.
        hive.unregister((any Meter).self)
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(3) }
        #expect(try reading() == 3)

        #expect(try reading() == 3)
        try expectOverrideAndTraceSeen(in: hive, reading: { try reading() }, kept: 3)

        // The hive that held the instance is released.
        var parent: ServiceHive? = ServiceHive()
        try parent!.register((any Meter).self, scope: .singleton) { LiveMeter(5) }
        weak let meter = try parent!.resolve((any Meter).self) as? LiveMeter
        _ = try parent!.resolve((any Meter).self)
        parent = nil
        #expect(meter == nil)
    }

    @Test("a singleton's dependency resolved from a factory is recorded, not read from the kept answers")
    func recordingSkipsKeptAnswers() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        try hive.register((any Gauge).self, scope: .singleton) { r in LiveGauge(meter: try r.resolve()) }
        _ = try hive.resolve((any Meter).self)
        _ = try hive.resolve((any Meter).self)  // kept
        _ = try hive.resolve((any Gauge).self)  // built: its lookup of the meter is recorded
        hive.resetInstances(of: (any Meter).self)
        #expect(try hive.resolve((any Gauge).self).meter.reading == 1)
        #expect(try hive.resolve((any Gauge).self).meter === hive.resolve((any Meter).self), "rebuilt from the new one")
    }
}
#endif

/// A service type per depth: `Nested<Int>`, `Nested<Nested<Int>>` and so on, each its own metadata.
private final class Nested<Inner>: Sendable {}

/// Adds to `services` `count` types `Nested<…>` from `type` on, each with a closure that registers it in `hive` as a
/// singleton and one that resolves it.
/// How a test registers one service, and resolves it.
private typealias ServiceActions = (register: @Sendable () throws -> Void, resolve: @Sendable () throws -> Void)

private func collectServices<Service>(
    _ type: Service.Type, count: Int, hive: ServiceHive,
    into services: inout [ObjectIdentifier: ServiceActions]
) {
    guard count > 0 else { return }
    services[ObjectIdentifier(Nested<Service>.self)] = (
        { try hive.register(Nested<Service>.self, scope: .singleton) { Nested<Service>() } },
        { _ = try hive.resolve(Nested<Service>.self) }
    )
    collectServices(Nested<Service>.self, count: count - 1, hive: hive, into: &services)
}
