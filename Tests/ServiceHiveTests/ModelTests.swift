import Foundation
import ServiceHive
import Support
import Testing

/// What every factory in the model test builds: which registration built it, a unique instance number, and the
/// runtime argument, if any.
final class Probe: Sendable {
    let version: Int
    let instance: Int
    let argument: Int?

    init(version: Int, instance: Int, argument: Int?) {
        self.version = version
        self.instance = instance
        self.argument = argument
    }
}

/// The state the workers share: counters for versions and instances, builds per version, and resets.
final class ModelWorld: Sendable {
    private let counters = Locked((version: 0, instance: 0))
    private let buildsByVersion = Locked([Int: Int]())
    /// Resets started, counted before `resetInstances` is called, and resets finished, counted after.
    let resetsStarted = Locked(0)
    let resetsFinished = Locked(0)

    func newVersion() -> Int {
        counters.withLock {
            $0.version += 1; return $0.version
        }
    }

    /// What a factory does: count the build and return a new probe.
    func build(version: Int, argument: Int? = nil) -> Probe {
        buildsByVersion.withLock { $0[version, default: 0] += 1 }
        let instance = counters.withLock {
            $0.instance += 1; return $0.instance
        }
        return Probe(version: version, instance: instance, argument: argument)
    }

    func builds(of version: Int) -> Int { buildsByVersion.withLock { $0[version, default: 0] } }
}

/// One worker of the model test: random operations on its own names, checked against a sequential model of what
/// must hold. Its names are its own, so the model is exact even while other workers run at the same time on the
/// same hive.
final class ModelWorker: @unchecked Sendable {
    // Sendable: a worker is used by one thread or one task at a time.
    let id: Int
    let hive: ServiceHive
    let child: ServiceHive
    let world: ModelWorld
    let shared: [(name: String, version: Int)]
    private var random: SplitMix
    private let names: [String]
    private let scopes: [ServiceHive.Scope] = [.transient, .singleton, .weak, .graph]

    /// The model: this worker's registrations.
    private var plain: [String: (version: Int, scope: ServiceHive.Scope)] = [:]
    private var withArguments: [String: Int] = [:]
    /// The last singleton instance seen for a name, outside any scope, and the resets finished before that resolve.
    private var seen: [String: (version: Int, instance: Int, resetsFinished: Int)] = [:]
    private(set) var failures: [String] = []
    private(set) var steps = 0

    init(id: Int, seed: UInt64, hive: ServiceHive, child: ServiceHive, world: ModelWorld, shared: [(String, Int)]) {
        self.id = id
        self.hive = hive
        self.child = child
        self.world = world
        self.shared = shared.map { (name: $0.0, version: $0.1) }
        random = SplitMix(seed: seed &+ UInt64(id) &* 0x9E37_79B9)
        names = (0..<6).map { "w\(id).\($0)" }
    }

    private func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

    private func fail(_ message: String) {
        failures.append("worker \(id), step \(steps): \(message)")
    }

    // MARK: - Steps

    /// One random operation that runs the same on a thread or in a task.
    func synchronousStep() {
        steps += 1
        let name = pick(names)
        switch random.next() % 100 {
        case 0..<15: register(name, scope: pick(scopes))
        case 15..<20: registerWithArguments(name)
        case 20..<30: unregister(name)
        case 30..<33: unregisterWithArguments(name)
        case 33..<60: resolve(name, from: hive)
        case 60..<70: resolve(name, from: child)
        case 70..<80: resolveWithArguments(name, argument: Int(random.next() % 1_000), from: pick([hive, child]))
        case 80..<82: resetInstances()
        case 82..<88: resolveShared()
        default: overrideScope(target: name, other: pick(names))
        }
    }

    /// One random operation, using the async override scope with suspension points inside.
    func asynchronousStep() async {
        if random.next() % 100 < 12 {
            steps += 1
            await asyncOverrideScope(target: pick(names), other: pick(names))
        } else {
            synchronousStep()
        }
    }

    // MARK: - Registration

    private func register(_ name: String, scope: ServiceHive.Scope) {
        let version = world.newVersion()
        let world = world
        do {
            try hive.register(Probe.self, name: name, scope: scope) { world.build(version: version) }
            if plain[name] != nil { fail("registering \(name) twice succeeded") }
            plain[name] = (version, scope)
        } catch {
            guard case .alreadyRegistered? = error as? ServiceHiveError, plain[name] != nil else {
                return fail("register \(name): \(error)")
            }
        }
    }

    private func registerWithArguments(_ name: String) {
        let version = world.newVersion()
        let world = world
        do {
            try hive.register(Probe.self, name: name) { (_: ServiceHive.Resolver, argument: Int) in
                world.build(version: version, argument: argument)
            }
            if withArguments[name] != nil { fail("registering \(name) with arguments twice succeeded") }
            withArguments[name] = version
        } catch {
            guard case .alreadyRegistered? = error as? ServiceHiveError, withArguments[name] != nil else {
                return fail("register \(name) with arguments: \(error)")
            }
        }
    }

    private func unregister(_ name: String) {
        let removed = hive.unregister(Probe.self, name: name)
        if removed != (plain[name] != nil) { fail("unregister \(name) returned \(removed)") }
        plain[name] = nil
    }

    private func unregisterWithArguments(_ name: String) {
        let removed = hive.unregister(Probe.self, name: name, arguments: Int.self)
        if removed != (withArguments[name] != nil) { fail("unregister \(name) with arguments returned \(removed)") }
        withArguments[name] = nil
    }

    // MARK: - Resolution

    /// Resolves `name` and checks the outcome against the model.
    private func resolve(_ name: String, from target: ServiceHive) {
        let resetsFinished = world.resetsFinished.current
        do {
            let probe = try target.resolve(Probe.self, name: name)
            guard let registration = plain[name] else { return fail("resolve \(name) found \(probe.version)") }
            guard probe.version == registration.version else {
                return fail("resolve \(name): version \(probe.version), registered \(registration.version)")
            }
            if registration.scope == .singleton { checkSingleton(name, probe, resetsFinished: resetsFinished) }
        } catch {
            switch (error as? ServiceHiveError, plain[name], withArguments[name]) {
            case (.notRegistered?, nil, nil), (.argumentMismatch?, nil, _?): return
            default: fail("resolve \(name): \(error), model \(String(describing: plain[name]))")
            }
        }
    }

    /// A singleton keeps its instance unless a reset may have run since it was last seen.
    private func checkSingleton(_ name: String, _ probe: Probe, resetsFinished: Int) {
        defer { seen[name] = (probe.version, probe.instance, resetsFinished) }
        guard let last = seen[name], last.version == probe.version, last.instance != probe.instance else { return }
        if world.resetsStarted.current <= last.resetsFinished {
            fail("singleton \(name) changed from \(last.instance) to \(probe.instance) with no reset in between")
        }
    }

    private func resolveWithArguments(_ name: String, argument: Int, from target: ServiceHive) {
        do {
            let probe = try target.resolve(Probe.self, name: name, arguments: argument)
            guard let version = withArguments[name] else { return fail("resolve \(name)(\(argument)) succeeded") }
            if probe.version != version || probe.argument != argument {
                fail(
                    "resolve \(name)(\(argument)): version \(probe.version), argument \(String(describing: probe.argument))"
                )
            }
        } catch {
            switch (error as? ServiceHiveError, withArguments[name], plain[name]) {
            case (.notRegistered?, nil, nil), (.argumentMismatch?, nil, _?): return
            default: fail("resolve \(name)(\(argument)): \(error)")
            }
        }
    }

    private func resolveShared() {
        let (name, version) = pick(shared)
        let resetsFinished = world.resetsFinished.current
        do {
            let probe = try pick([hive, child]).resolve(Probe.self, name: name)
            if probe.version != version { fail("shared \(name): version \(probe.version)") }
            checkSingleton(name, probe, resetsFinished: resetsFinished)
        } catch {
            fail("shared \(name): \(error)")
        }
    }

    private func resetInstances() {
        world.resetsStarted.increment()
        hive.resetInstances()
        world.resetsFinished.increment()
    }

    // MARK: - Override scopes

    /// Inside overrides of `target`: the override is seen from the hive and its child, and `other`, if it is a
    /// singleton, is the instance from outside, since it was built from nothing overridden. Afterwards the override
    /// does not leak.
    private func overrideScope(target: String, other: String) {
        let version = world.newVersion()
        let world = world
        let scope = pick([ServiceHive.Scope.transient, .singleton])
        hive.withOverrides {
            $0.register(Probe.self, name: target, scope: scope) { world.build(version: version) }
        } operation: {
            checkInsideScope(target: target, overrideVersion: version, other: other)
            if random.next() % 4 == 0 {
                let inner = world.newVersion()
                hive.withOverrides {
                    $0.register(Probe.self, name: target) { world.build(version: inner) }
                } operation: {
                    expectVersion(target, inner, from: hive, "nested overrides")
                }
                expectVersion(target, version, from: child, "after the nested overrides")
            }
        }
        afterScope(target: target, other: other)
    }

    private func asyncOverrideScope(target: String, other: String) async {
        let version = world.newVersion()
        let world = world
        let hive = hive
        await hive.withOverrides {
            $0.register(Probe.self, name: target) { world.build(version: version) }
        } operation: {
            await Task.yield()
            checkInsideScope(target: target, overrideVersion: version, other: other)
            // A child task, which inherits the scope, and runs on the worker's thread like the worker.
            async let resolvedInChildTask = try? hive.resolve(Probe.self, name: target).version
            let fromChildTask = await resolvedInChildTask
            if fromChildTask != version {
                fail("a child task saw \(String(describing: fromChildTask)), not \(version)")
            }
            await Task.yield()
            expectVersion(target, version, from: hive, "after a suspension in the scope")
        }
        afterScope(target: target, other: other)
    }

    private func checkInsideScope(target: String, overrideVersion: Int, other: String) {
        expectVersion(target, overrideVersion, from: hive, "inside the scope")
        expectVersion(target, overrideVersion, from: child, "inside the scope, from the child")
        guard other != target, let registration = plain[other], registration.scope == .singleton,
            let outside = seen[other], outside.version == registration.version
        else { return }
        guard let first = try? hive.resolve(Probe.self, name: other),
            let second = try? hive.resolve(Probe.self, name: other)
        else { return fail("\(other) did not resolve inside overrides") }
        // Another worker's reset may replace the instance at any time; only an unexplained change is a failure.
        guard world.resetsStarted.current <= outside.resetsFinished else { return }
        if first.instance != outside.instance { fail("\(other) was rebuilt inside overrides that it does not use") }
        if first.instance != second.instance { fail("\(other) is not shared inside overrides") }
    }

    private func afterScope(target: String, other: String) {
        resolve(target, from: pick([hive, child]))
        if other != target, plain[other]?.scope == .singleton { resolve(other, from: hive) }
    }

    private func expectVersion(_ name: String, _ version: Int, from target: ServiceHive, _ context: String) {
        do {
            let probe = try target.resolve(Probe.self, name: name)
            if probe.version != version { fail("\(name) \(context): version \(probe.version), expected \(version)") }
        } catch {
            fail("\(name) \(context): \(error)")
        }
    }
}

@Suite("A randomized model test across threads and tasks", .timeLimit(.minutes(5)))
struct ModelTests {
    /// The seed: `SERVICEHIVE_MODEL_SEED` if set, else a fixed one, so a CI run is repeatable.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["SERVICEHIVE_MODEL_SEED"].flatMap { UInt64($0) } ?? 0x5EED
    /// Steps per worker: `SERVICEHIVE_MODEL_STEPS` if set.
    static let steps = ProcessInfo.processInfo.environment["SERVICEHIVE_MODEL_STEPS"].flatMap { Int($0) } ?? 1_500

    @Test("random operations on three threads and three tasks always agree with the sequential model")
    func randomOperations() async throws {
        let seed = Self.seed
        let hive = ServiceHive()
        let child = ServiceHive(parent: hive)
        let world = ModelWorld()
        var shared: [(String, Int)] = []
        for index in 0..<3 {
            let version = world.newVersion()
            // A slow factory widens the window in which threads race to build the same singleton.
            try hive.register(Probe.self, name: "shared\(index)", scope: .singleton) {
                pause(milliseconds: 1)
                return world.build(version: version)
            }
            shared.append(("shared\(index)", version))
        }
        let workers = (0..<6).map {
            ModelWorker(id: $0, seed: seed, hive: hive, child: child, world: world, shared: shared)
        }

        // Three workers on threads, three in tasks, at the same time. Past the limit, a deadlock fails the test, which
        // then reads nothing the workers may still be writing.
        let steps = Self.steps
        async let threads: [Void] = onThreads(3, "seed \(seed)'s worker threads") { index in
            for _ in 0..<steps { workers[index].synchronousStep() }
        }
        // The tasks resolve synchronously, and so block while another worker builds a slow singleton: each runs on a
        // thread of its own, not the cooperative pool, and the tasks it makes run there too.
        try await inTasksOnThreads(3, "seed \(seed)'s worker tasks") { index in
            for _ in 0..<steps { await workers[3 + index].asynchronousStep() }
        }
        _ = try await threads

        let failures = workers.flatMap(\.failures)
        #expect(failures.isEmpty, "seed \(seed) (rerun with SERVICEHIVE_MODEL_SEED=\(seed)): \(failures.prefix(10))")
        #expect(workers.map(\.steps).reduce(0, +) == 6 * Self.steps, "seed \(seed)")
        for (name, version) in shared {
            let builds = world.builds(of: version)
            #expect(
                builds <= 1 + world.resetsStarted.current,
                "seed \(seed): \(name) was built \(builds) times with \(world.resetsStarted.current) resets")
        }
        if !failures.isEmpty { print("ModelTests failed with seed \(seed)") }
    }
}
