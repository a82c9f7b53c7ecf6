import ServiceHive
import Support
import Testing

@Suite("Resolving services", .timeLimit(.minutes(5)))
struct ResolutionTests {
    @Test("named variants resolve separately from the unnamed registration")
    func named() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }

        #expect(try hive.resolve(TradeService.self).label == "live")
        #expect(try hive.resolve(TradeService.self, name: "premium").label == "premium")
        #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self, name: "missing") }
    }
    @Test("factories receive a resolver that resolves their dependencies")
    func resolverFactory() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        let cart = try hive.resolve(Cart.self)
        #expect(cart.trade === (try hive.resolve(TradeService.self)))
    }
    @Test("runtime arguments reach the factory, with one or several values, and with a name")
    func arguments() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String, times: Int) in
            LiveGreeter(name: name, times: times)
        }
        try hive.register(Greeter.self, name: "formal") { (_: ServiceHive.Resolver, name: String) in
            LiveGreeter(name: "Dr. \(name)")
        }

        #expect(try hive.resolve(Greeter.self, arguments: "Mimi").greeting == "Hello, Mimi!")
        #expect(try hive.resolve(Greeter.self, arguments: "Mimi", 2).greeting == "Hello, Mimi! Hello, Mimi!")
        #expect(try hive.resolve(Greeter.self, name: "formal", arguments: "Mimi").greeting == "Hello, Dr. Mimi!")
    }
    @Test("one tuple argument and two arguments of the same types are different registrations")
    func tupleArgumentIsNotTwoArguments() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, pair: (String, Int)) in
            LiveGreeter(name: "pair \(pair.0)", times: pair.1)
        }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String, times: Int) in
            LiveGreeter(name: name, times: times)
        }

        #expect(try hive.resolve(Greeter.self, arguments: ("a", 1)).greeting == "Hello, pair a!")
        #expect(try hive.resolve(Greeter.self, arguments: "b", 1).greeting == "Hello, b!")
    }
    @Test("a registered instance is returned by every resolve")
    func instance() throws {
        let hive = ServiceHive()
        let prebuilt = LiveTradeService(label: "prebuilt")
        try hive.register(TradeService.self, instance: prebuilt)

        #expect(try hive.resolve(TradeService.self) === prebuilt)
        hive.resetInstances()
        #expect(try hive.resolve(TradeService.self) === prebuilt, "reset keeps an instance registration's instance")
    }
    @Test("a factory that throws caches nothing: the next resolve runs it again, and success is then cached")
    func throwingFactoryCachesNothing() throws {
        let hive = ServiceHive()
        let attempts = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            let attempt = attempts.increment()
            if attempt == 1 { throw DatabaseOffline() }
            return LiveTradeService(label: "attempt \(attempt)")
        }

        #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }
        #expect(try hive.resolve(TradeService.self).label == "attempt 2")
        #expect(try hive.resolve(TradeService.self).label == "attempt 2")
        #expect(attempts.current == 2)
    }
    @Test("the shared hive is one process-wide hive: what a thread registers in it, other threads and tasks resolve")
    func sharedHive() async throws {
        let name = "ResolutionTests.sharedHive"  // a name of its own, since other tests use the shared hive too
        defer { ServiceHive.shared.unregister(TradeService.self, name: name) }
        let registered = try await onThreads(1, "the registration") { _ in
            try ServiceHive.shared.register(TradeService.self, name: name) { LiveTradeService(label: "shared") }
            return ObjectIdentifier(ServiceHive.shared)
        }
        #expect(registered == [ObjectIdentifier(ServiceHive.shared)], "the thread's shared hive is the test's")
        #expect(try ServiceHive.shared.resolve(TradeService.self, name: name).label == "shared")
        let fromDetached = try await within("a resolve in a detached task") {
            try await Task.detached { try ServiceHive.shared.resolve(TradeService.self, name: name).label }.value
        }
        #expect(fromDetached == "shared", "a detached task, which sees no task-local state, sees the same hive")
    }

    // MARK: - Optional services

    @Test("resolving an Optional of a registered service gives the service, as try? and as a type")
    func optionalOfRegistered() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService(label: "live") }
        let inferred: (any TradeService)? = try? hive.resolve()
        let explicit = try hive.resolve((any TradeService)?.self)
        #expect(inferred?.label == "live")
        #expect(explicit?.label == "live")
    }

    @Test("resolving an Optional of an unregistered service gives nil, and a failing factory still throws")
    func optionalOfMissing() throws {
        let hive = ServiceHive()
        let missing = try hive.resolve((any TradeService)?.self)
        #expect(missing == nil)
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }  // TradeService is missing inside
        let error = error { _ = try hive.resolve((any Cart)?.self) }
        guard case .notRegistered(let key, let chain)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key == ServiceHive.ServiceKey(TradeService.self))
        #expect(chain == [ServiceHive.ServiceKey(Cart.self)])
        try hive.register(Clock.self) { throw DatabaseOffline() }
        #expect(throws: ServiceHiveError.self) { _ = try hive.resolve((any Clock)?.self) }
    }

    @Test("a factory may resolve an optional dependency, and gets nil while it is not registered")
    func optionalDependency() throws {
        let hive = ServiceHive()
        try hive.register(Report.self) { r in
            let clock: (any Clock)? = try r.resolve()
            return LiveReport(header: clock ?? SystemClock(), footer: clock ?? SystemClock())
        }
        let report = try hive.resolve(Report.self)
        #expect(report.header !== report.footer, "no clock: two defaults")
    }
}
