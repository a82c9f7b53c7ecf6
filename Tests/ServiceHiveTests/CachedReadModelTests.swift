import ServiceHive
import Support
import Synchronization
import Testing

// Writers change the hive while readers resolve on threads of their own, most of them from the answers their threads
// kept, without the lock. Checked against a sequential model: once a change has returned, no resolve that starts
// afterwards sees what the change removed.

/// The instance a resolve sees, numbered by the writer's round that made the registration or reset that built it.
/// A failed install's module numbers its own with the round, negated.
private final class Generation: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Replaces the hive's `Generation` during its install, then fails in `start`: the install rolls back.
private struct FailingReplacement: ServiceModule {
    let round: Int
    let scope: ServiceHive.Scope
    var name: String { "Replacement \(round)" }

    func register(in hive: ServiceHive) throws {
        hive.unregister(Generation.self)
        try hive.register(Generation.self, scope: scope) { [round] in Generation(-round) }
    }

    func start(in hive: ServiceHive) async throws {
        _ = try hive.resolve(Generation.self)  // built, cached, and kept by this thread's next resolves
        _ = try hive.resolve(Generation.self)
        throw DatabaseOffline()
    }
}

/// What the writer has finished: reads that start afterwards must respect it.
private final class Model: Sendable {
    /// The writer's current round: the factories registered by the writer number their instances with it.
    let round = Atomic<Int>(0)
    /// No resolve that starts now may see an instance numbered below this: a replacement or reset of this round
    /// returned.
    let floor = Atomic<Int>(0)
    /// No resolve that starts now may see the instance of a failed install of a round up to this one.
    let rolledBack = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    /// How many resolves each reader has ended, for the writer to wait for after each round.
    let firstEnded = Atomic<Int>(0), secondEnded = Atomic<Int>(0)

    func endedResolves(_ reader: Int) -> Int {
        reader == 0 ? firstEnded.load(ordering: .acquiring) : secondEnded.load(ordering: .acquiring)
    }

    func endResolve(_ reader: Int) {
        if reader == 0 { firstEnded.add(1, ordering: .releasing) } else { secondEnded.add(1, ordering: .releasing) }
    }
}

/// What one reader saw.
private struct Reading: Sendable {
    var resolves = 0
    var misses = 0
    var violations: [String] = []
}

@Suite("Cached reads against a sequential model", .timeLimit(.minutes(5)))
struct CachedReadModelTests {
    /// A singleton's factory numbers what it builds with the round it is built in, so a reset's floor holds; a
    /// transient's, with the round that registered it, so that a resolve that builds from a registration replaced
    /// before it started is seen.
    @Test(
        "no resolve that starts after a change returned sees what the change removed, of a singleton or a transient",
        arguments: [false, true])
    func changesAreSeenInOrder(transient: Bool) async throws {
        let hive = ServiceHive()
        let model = Model()
        let rounds = 300
        let scope: ServiceHive.Scope = transient ? .transient : .singleton
        func register(round: Int) throws {
            if transient {
                try hive.register(Generation.self, scope: .transient) { Generation(round) }
            } else {
                try hive.register(Generation.self, scope: .singleton) {
                    Generation(model.round.load(ordering: .acquiring))
                }
            }
        }
        try register(round: 0)
        let child = hive.child()

        async let readings = onThreads(2, "the readers") { index -> Reading in
            var reading = Reading()
            let from = index == 0 ? hive : child  // the second reads the parent's singleton through a request hive
            while !model.stop.load(ordering: .acquiring) {
                let floor = model.floor.load(ordering: .acquiring)
                let rolledBack = model.rolledBack.load(ordering: .acquiring)
                reading.resolves += 1
                guard let number = try? from.resolve(Generation.self).number else {
                    reading.misses += 1  // between an unregister and the register after it
                    model.endResolve(index)
                    continue
                }
                defer { model.endResolve(index) }
                if number >= 0, number < floor {
                    reading.violations.append("saw generation \(number) after round \(floor) replaced or reset it")
                } else if number < 0, -number <= rolledBack {
                    reading.violations.append("saw the failed install \(-number)'s instance after its rollback")
                }
            }
            return reading
        }

        for round in 1...rounds {
            model.round.store(round, ordering: .releasing)
            switch round % 3 {
            case 0:
                hive.unregister(Generation.self)
                try register(round: round)
                model.floor.store(round, ordering: .releasing)
            case 1:
                // A transient has no instance to reset: its registration stays, and so does the floor.
                hive.resetInstances(of: Generation.self)
                if !transient { model.floor.store(round, ordering: .releasing) }
            default:
                await #expect(throws: ServiceHiveError.self) {
                    try await hive.install(FailingReplacement(round: round, scope: scope))
                }
                model.rolledBack.store(round, ordering: .releasing)
            }
            // Resolves on the writer's thread too, so that its own kept answers are checked as well.
            let seen = try child.resolve(Generation.self).number
            #expect(seen >= model.floor.load(ordering: .relaxed), "round \(round): the writer's own resolve")
            // Each reader ends two resolves after the change, so at least one that started after it: every round is
            // checked by both, however the threads are scheduled.
            let ended = (model.endedResolves(0), model.endedResolves(1))
            try await within("both readers to resolve after round \(round)") {
                while model.endedResolves(0) < ended.0 + 2 || model.endedResolves(1) < ended.1 + 2 {
                    await Task.yield()
                }
            }
        }
        model.stop.store(true, ordering: .releasing)

        let seen = try await readings
        #expect(seen.flatMap(\.violations) == [])
        for (index, reading) in seen.enumerated() {
            #expect(reading.resolves >= 2 * rounds, "reader \(index) resolved \(reading.resolves) times")
            #expect(reading.misses < reading.resolves, "reader \(index) found the service at least once")
        }
    }
}
