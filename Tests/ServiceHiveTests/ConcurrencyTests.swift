import Dispatch
import ServiceHive
import Support
import Testing

@Suite("Thread safety")
struct ConcurrencyTests {
    @Test("a singleton with a slow factory, resolved from 8 threads at once, is built exactly once, every round")
    func exactlyOnce() throws {
        for round in 0..<40 {
            let hive = ServiceHive()
            let builds = Locked(0)
            try hive.register(TradeService.self, scope: .singleton) {
                builds.increment()
                pause(milliseconds: 2)
                return LiveTradeService(label: "round \(round)")
            }
            let seen = Locked<[ObjectIdentifier]>([])
            runOnThreads(8) { _ in
                guard let trade = try? hive.resolve(TradeService.self) else { return }
                seen.withLock { $0.append(ObjectIdentifier(trade)) }
            }
            #expect(builds.current == 1, "round \(round)")
            #expect(seen.current.count == 8, "round \(round)")
            #expect(Set(seen.current).count == 1, "round \(round): all threads got the same instance")
        }
    }

    @Test("threads waiting on a singleton whose factory fails retry it, and one of them caches the success")
    func waitersRetryAfterFailure() throws {
        for round in 0..<20 {
            let hive = ServiceHive()
            let attempts = Locked(0)
            try hive.register(TradeService.self, scope: .singleton) {
                let attempt = attempts.increment()
                pause(milliseconds: 2)
                if attempt == 1 { throw DatabaseOffline() }
                return LiveTradeService()
            }
            let results = Locked<[ObjectIdentifier?]>([])
            runOnThreads(6) { _ in
                let trade = try? hive.resolve(TradeService.self)
                results.withLock { $0.append(trade.map(ObjectIdentifier.init)) }
            }
            let successes = results.current.compactMap { $0 }
            #expect(results.current.count == 6, "round \(round)")
            #expect(successes.count >= 5, "round \(round): only the first attempt failed")
            #expect(Set(successes).count == 1, "round \(round)")
            #expect(attempts.current == 2, "round \(round): one failure, then exactly one success")
        }
    }

    @Test("two threads entering a cycle of singletons from opposite ends both get circularDependency")
    func crossingCycle() throws {
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
            let cycles = Locked<[[String]?]>([])
            let finished = runOnThreads(2, timeout: 20) { index in
                let thrown = error {
                    if index == 0 { _ = try hive.resolve(Chicken.self) } else { _ = try hive.resolve(Egg.self) }
                }
                cycles.withLock { $0.append(thrown?.cycle) }
            }
            guard finished else { return }
            let chains = cycles.current.compactMap { $0 }
            #expect(chains.count == 2, "round \(round): both threads got circularDependency, got \(cycles.current)")
            for chain in chains {
                #expect(Set(chain) == ["Chicken", "Egg"], "round \(round)")
                #expect(chain.first == chain.last && chain.count == 3, "round \(round)")
            }
        }
    }

    @Test("a factory may register, unregister and resolve on its own hive: no lock is held while it runs")
    func factoryReentersTheHive() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { [unowned hive] in
            try hive.register(Session.self) { LiveSession() }
            _ = try hive.resolve(Session.self)
            #expect(hive.isRegistered(Session.self))
            hive.unregister(Session.self)
            hive.resetInstances()
            return LiveTradeService()
        }
        let finished = runOnThreads(1, timeout: 10) { _ in
            #expect((try? hive.resolve(TradeService.self)) != nil)
        }
        #expect(finished)
        #expect(!hive.isRegistered(Session.self))
    }

    @Test("singletons that depend on each other in a diamond, resolved from 8 threads, never deadlock")
    func diamondFromManyThreads() throws {
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
            let failures = Locked<[String]>([])
            runOnThreads(8, timeout: 20) { index in
                do {
                    switch index % 3 {
                    case 0: _ = try hive.resolve(Report.self)
                    case 1: _ = try hive.resolve(Cart.self, name: "other")
                    default: _ = try hive.resolve(Cart.self)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.current.isEmpty, "round \(round)")
            #expect(builds.current == 1, "round \(round)")
        }
    }

    @Test("any mix of register, unregister, resolve and reset from many threads is safe and consistent")
    func mixedOperations() throws {
        let hive = ServiceHive()
        let child = ServiceHive(parent: hive)
        let anomalies = Locked<[String]>([])
        runOnThreads(6, timeout: 60) { thread in
            var generator = SplitMix(seed: UInt64(thread))
            for step in 0..<3_000 {
                let name = "key\(generator.next() % 8)"
                let target = generator.next() % 4 == 0 ? child : hive
                switch generator.next() % 7 {
                case 0:
                    let scope = ServiceHive.Scope.builtIn[Int(generator.next() % 4)]
                    try? hive.register(TradeService.self, name: name, scope: scope) { LiveTradeService(label: name) }
                case 1:
                    hive.unregister(TradeService.self, name: name)
                case 2:
                    hive.resetInstances()
                default:
                    do {
                        let trade = try target.resolve(TradeService.self, name: name)
                        if trade.label != name {
                            anomalies.withLock { $0.append("thread \(thread) step \(step): \(trade.label)") }
                        }
                    } catch let error as ServiceHiveError {
                        guard case .notRegistered = error else {
                            anomalies.withLock { $0.append("thread \(thread) step \(step): \(error)") }
                            continue
                        }
                    } catch {
                        anomalies.withLock { $0.append("thread \(thread) step \(step): \(error)") }
                    }
                }
            }
        }
        #expect(anomalies.current.isEmpty)
    }

    @Test(
        "a cached singleton resolved while another thread resets it: its deinit, which resolves, never runs locked",
        arguments: [false, true])
    func resolveWhileResetting(async: Bool) async throws {
        let hive = ServiceHive()
        let deinits = Locked(0)
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Reporter.self, scope: .singleton) { r in Reporter(resolver: r, deinits: deinits) }
        let failures = Locked<[String]>([])
        @Sendable func check(_ resolve: () throws -> Reporter) {
            do {
                if try resolve().label != "reporter" { failures.withLock { $0.append("a wrong instance") } }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        let finished = Locked(0)
        // Awaited, not waited for on a thread of the cooperative pool, which the async resolves' task needs.
        await runOnThreads(3, timeout: 60) { thread in
            guard thread != 0 else {
                // Resets for as long as the resolves run, however their threads and tasks are scheduled.
                while finished.current < 2 { hive.resetInstances() }
                return
            }
            defer { finished.withLock { $0 += 1 } }
            guard async else {
                for _ in 0..<20_000 { check { try hive.resolve(Reporter.self) } }
                return
            }
            let done = DispatchSemaphore(value: 0)
            Task {
                for _ in 0..<20_000 {
                    let result: Result<Reporter, any Error>
                    do { result = .success(try await hive.resolveAsync(Reporter.self)) } catch {
                        result = .failure(error)
                    }
                    check { try result.get() }
                }
                done.signal()
            }
            done.wait()
        }
        #expect(failures.current.isEmpty)
        #expect(deinits.current > 0, "no reset ever released a cached instance, so the test proves nothing")
    }

    @Test("weak instances dropped by one thread as another claims their slot: a deinit that resolves never runs locked")
    func weakReleasedWhileClaimed() throws {
        let hive = ServiceHive()
        let deinits = Locked(0)
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Reporter.self, scope: .weak) { r in Reporter(resolver: r, deinits: deinits) }
        let failures = Locked<[String]>([])
        // Each resolve builds an instance, or takes one another thread has just built and is about to drop. Threads,
        // not tasks: a task would need a thread of the cooperative pool, which other tests may be blocking.
        runOnThreads(3, timeout: 60) { _ in
            for _ in 0..<20_000 {
                do {
                    if try hive.resolve(Reporter.self).label != "reporter" {
                        failures.withLock { $0.append("a wrong instance") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.current.isEmpty)
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
