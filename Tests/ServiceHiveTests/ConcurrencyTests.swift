import ServiceHive
import Support
import Testing

// The threads are the tests' own (`onThreads`), so a factory may block or a deadlock may hold them without starving the
// cooperative pool, and a test waits for them suspended, never blocking a thread of the pool. They record nothing: each
// returns what it saw, and the test checks it once they have all ended.
@Suite("Thread safety", .timeLimit(.minutes(5)))
struct ConcurrencyTests {
    @Test("a singleton with a slow factory, resolved from 8 threads at once, is built exactly once, every round")
    func exactlyOnce() async throws {
        for round in 0..<40 {
            let hive = ServiceHive()
            let builds = Locked(0)
            try hive.register(TradeService.self, scope: .singleton) {
                builds.increment()
                pause(milliseconds: 2)
                return LiveTradeService(label: "round \(round)")
            }
            let seen = try await onThreads(8) { _ in ObjectIdentifier(try hive.resolve(TradeService.self)) }
            #expect(builds.current == 1, "round \(round)")
            #expect(Set(seen).count == 1, "round \(round): all threads got the same instance")
        }
    }

    @Test("threads waiting on a singleton whose factory fails retry it, and one of them caches the success")
    func waitersRetryAfterFailure() async throws {
        for round in 0..<20 {
            let hive = ServiceHive()
            let attempts = Locked(0)
            try hive.register(TradeService.self, scope: .singleton) {
                let attempt = attempts.increment()
                pause(milliseconds: 2)
                if attempt == 1 { throw DatabaseOffline() }
                return LiveTradeService()
            }
            let results = try await onThreads(6) { _ in Result { ObjectIdentifier(try hive.resolve(TradeService.self)) }
            }
            let successes = results.compactMap { try? $0.get() }
            let failures = results.filter { (try? $0.get()) == nil }.map { error(in: $0)?.description ?? "" }
            #expect(successes.count >= 5, "round \(round): only the first attempt failed")
            #expect(failures.allSatisfy { $0.contains("database offline") }, "round \(round): \(failures)")
            #expect(Set(successes).count == 1, "round \(round)")
            #expect(attempts.current == 2, "round \(round): one failure, then exactly one success")
        }
    }

    @Test("two threads entering a cycle of singletons from opposite ends both get circularDependency")
    func crossingCycle() async throws {
        for round in 0..<12 {
            let hive = ServiceHive()
            try hive.register(Chicken.self, scope: .singleton) { r in
                pause(milliseconds: 10)
                return LiveChicken(egg: try r.resolve())
            }
            try hive.register(Egg.self, scope: .singleton) { r in
                pause(milliseconds: 10)
                return LiveEgg(chicken: try r.resolve())
            }
            let outcomes = try await onThreads(2) { index in
                Result<Void, any Error> {
                    if index == 0 { _ = try hive.resolve(Chicken.self) } else { _ = try hive.resolve(Egg.self) }
                }
            }
            for outcome in outcomes {
                let chain = error(in: outcome)?.cycle
                #expect(Set(chain ?? []) == ["Chicken", "Egg"], "round \(round): \(outcome)")
                #expect(chain?.first == chain?.last && chain?.count == 3, "round \(round): \(outcome)")
            }
        }
    }

    @Test("a factory may register, unregister and resolve on its own hive: no lock is held while it runs")
    func factoryReentersTheHive() async throws {
        let hive = ServiceHive()
        let sawItsRegistration = Locked(false)
        try hive.register(TradeService.self, scope: .singleton) { [unowned hive] in
            try hive.register(Session.self) { LiveSession() }
            _ = try hive.resolve(Session.self)
            sawItsRegistration.withLock { $0 = hive.isRegistered(Session.self) }
            hive.unregister(Session.self)
            hive.resetInstances()
            return LiveTradeService()
        }
        // On a thread: were a lock held, the factory would deadlock there, and the wait would end at its limit.
        let labels = try await onThreads(1, "the re-entrant factory") { _ in try hive.resolve(TradeService.self).label }
        #expect(labels == ["live"])
        #expect(sawItsRegistration.current)
        #expect(!hive.isRegistered(Session.self))
    }

    @Test("singletons that depend on each other in a diamond, resolved from 8 threads, never deadlock")
    func diamondFromManyThreads() async throws {
        for round in 0..<30 {
            let hive = ServiceHive()
            let builds = Locked(0)
            try hive.register(TradeService.self, scope: .singleton) {
                builds.increment()
                pause(milliseconds: 1)
                return LiveTradeService()
            }
            try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
            try hive.register(Cart.self, name: "other", scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
            try hive.register(Report.self, scope: .singleton) { r in
                _ = try r.resolve(Cart.self)
                _ = try r.resolve(Cart.self, name: "other")
                return LiveReport(header: SystemClock(), footer: SystemClock())
            }
            // A resolve that throws fails the test with its error, once every thread has ended.
            try await onThreads(8, "round \(round)'s resolves") { index in
                switch index % 3 {
                case 0: _ = try hive.resolve(Report.self)
                case 1: _ = try hive.resolve(Cart.self, name: "other")
                default: _ = try hive.resolve(Cart.self)
                }
            }
            #expect(builds.current == 1, "round \(round)")
        }
    }

    @Test("any mix of register, unregister, resolve and reset from many threads is safe and consistent")
    func mixedOperations() async throws {
        let hive = ServiceHive()
        let child = ServiceHive(parent: hive)
        let reports = try await onThreads(6) { thread in
            var generator = SplitMix(seed: UInt64(thread))
            var (anomalies, resolved) = ([String](), 0)
            for step in 0..<3_000 {
                let name = "key\(generator.next() % 8)"
                let target = generator.next() % 4 == 0 ? child : hive
                switch generator.next() % 7 {
                case 0:
                    let scope = ServiceHive.Scope.builtIn[Int(generator.next() % 4)]
                    do {
                        try hive.register(TradeService.self, name: name, scope: scope) { LiveTradeService(label: name) }
                    } catch ServiceHiveError.alreadyRegistered {
                        // another thread registered it first
                    } catch {
                        anomalies.append("thread \(thread) step \(step): register: \(error)")
                    }
                case 1:
                    hive.unregister(TradeService.self, name: name)
                case 2:
                    hive.resetInstances()
                default:
                    do {
                        let trade = try target.resolve(TradeService.self, name: name)
                        resolved += 1
                        if trade.label != name { anomalies.append("thread \(thread) step \(step): \(trade.label)") }
                    } catch ServiceHiveError.notRegistered {
                        // another thread unregistered it
                    } catch {
                        anomalies.append("thread \(thread) step \(step): \(error)")
                    }
                }
            }
            return (anomalies: anomalies, resolved: resolved)
        }
        #expect(reports.flatMap(\.anomalies).isEmpty, "\(reports.flatMap(\.anomalies).prefix(10))")
        #expect(reports.map(\.resolved).reduce(0, +) > 0, "the threads resolved something: \(reports.map(\.resolved))")
    }

    @Test(
        "a cached singleton resolved while another thread resets it: its deinit, which resolves, never runs locked",
        arguments: [false, true])
    func resolveWhileResetting(async: Bool) async throws {
        let hive = ServiceHive()
        let deinits = Locked(0)
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Reporter.self, scope: .singleton) { r in Reporter(resolver: r, deinits: deinits) }
        /// What went wrong in one resolve, or `nil`.
        @Sendable func failure(_ resolved: Result<Reporter, any Error>) -> String? {
            switch resolved {
            case .success(let reporter): reporter.label == "reporter" ? nil : "a wrong instance"
            case .failure(let error): "\(error)"
            }
        }
        // A thread resets while the two resolvers run, however their threads or tasks are scheduled: they start
        // once it has, and it goes on until both have ended (a resolver that ends, even by throwing, says so first),
        // then resets once more, which releases the instance the last resolves cached. It spins at most the wait
        // limit: past it, the resolvers are stuck, and the thread stops instead of burning a core for the rest of the
        // run.
        let resetting = Gate()
        let resolving = Locked(2)
        // Each resolver stops at 20,000 resolves, or at 20 seconds on a machine so loaded that it gets that far: the
        // count of resolves, not the time they take, must not decide the outcome. Thousands race either way.
        let resolves = Locked(0)
        @Sendable func keepsResolving(_ done: Int, since start: ContinuousClock.Instant) -> Bool {
            done < 20_000 && ContinuousClock.now - start < .seconds(20)
        }
        async let resets = onThreads(1, "the resets") { _ in
            resetting.open()
            let deadline = ContinuousClock.now + waitLimit
            var resets = 0
            repeat {
                hive.resetInstances()
                resets += 1
                guard ContinuousClock.now < deadline else {
                    throw TimedOut(what: "the resolvers to end while a thread resets", limit: waitLimit)
                }
            } while resolving.current > 0
            hive.resetInstances()
            return resets + 1
        }
        let failures: [String]
        if async {
            failures = try await within("the async resolves") {
                await withTaskGroup(of: [String].self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            defer { resolving.withLock { $0 -= 1 } }
                            var failures: [String] = []
                            do { try await resetting.opened("the resets to start") } catch { return ["\(error)"] }
                            let start = ContinuousClock.now
                            var done = 0
                            while keepsResolving(done, since: start) {
                                let resolved: Result<Reporter, any Error>
                                do { resolved = .success(try await hive.resolveAsync(Reporter.self)) } catch {
                                    resolved = .failure(error)
                                }
                                if let failure = failure(resolved) { failures.append(failure) }
                                done += 1
                            }
                            resolves.withLock { $0 += done }
                            return failures
                        }
                    }
                    return await group.reduce(into: []) { $0 += $1 }
                }
            }
        } else {
            failures = try await onThreads(2, "the resolves") { _ in
                defer { resolving.withLock { $0 -= 1 } }
                guard resetting.wait() else { return ["the resets did not start"] }
                let start = ContinuousClock.now
                var (failures, done) = ([String](), 0)
                while keepsResolving(done, since: start) {
                    if let failure = failure(Result { try hive.resolve(Reporter.self) }) { failures.append(failure) }
                    done += 1
                }
                resolves.withLock { $0 += done }
                return failures
            }.flatMap { $0 }
        }
        let resetCount = try await resets.reduce(0, +)
        #expect(resetCount > 0)
        #expect(resolves.current >= 2, "each resolver resolved")
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        #expect(deinits.current > 0, "no reset ever released a cached instance, so the test proves nothing")
    }

    @Test("weak instances dropped by one thread as another claims their slot: a deinit that resolves never runs locked")
    func weakReleasedWhileClaimed() async throws {
        let hive = ServiceHive()
        let deinits = Locked(0)
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Reporter.self, scope: .weak) { r in Reporter(resolver: r, deinits: deinits) }
        // Each resolve builds an instance, or takes one another thread has just built and is about to drop.
        let failures = try await onThreads(3) { _ in
            (0..<20_000).compactMap { _ -> String? in
                do {
                    return try hive.resolve(Reporter.self).label == "reporter" ? nil : "a wrong instance"
                } catch {
                    return "\(error)"
                }
            }
        }.flatMap { $0 }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        #expect(deinits.current > 0)
    }
}

/// A singleton whose `deinit` resolves through its kept resolver, as a service that logs its shutdown does. Were it
/// released with the family lock held, that resolve would deadlock.
private final class Reporter: Sendable {
    let resolver: ServiceHive.Resolver
    let deinits: Locked<Int>
    let label = "reporter"

    init(resolver: ServiceHive.Resolver, deinits: Locked<Int>) {
        self.resolver = resolver
        self.deinits = deinits
    }

    deinit {
        _ = try? resolver.resolve(TradeService.self)
        deinits.withLock { $0 += 1 }
    }
}
