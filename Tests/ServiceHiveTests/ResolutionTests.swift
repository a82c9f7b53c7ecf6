import Support
import ServiceHive
import Testing

@Suite("Resolving services")
struct ResolutionTests {
    @Test("a singleton is built lazily, once, and shared")
    func singleton() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        #expect(builds.current == 0, "nothing is built at registration")

        let first = try hive.resolve(TradeService.self)
        let second = try hive.resolve(TradeService.self)
        #expect(first === second)
        #expect(builds.current == 1)
    }

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

    @Test("a weak instance is shared while held, never kept alive by the hive, and rebuilt after release")
    func weakScope() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Session.self, scope: .weak) {
            builds.increment()
            return LiveSession()
        }

        var held: (any Session)? = try hive.resolve(Session.self)
        weak let observed = held
        #expect(try hive.resolve(Session.self) === held)
        #expect(builds.current == 1)

        held = nil
        #expect(observed == nil, "the hive holds a weak instance weakly")
        let rebuilt = try hive.resolve(Session.self)
        #expect(builds.current == 2)
        withExtendedLifetime(rebuilt) {}
    }

    @Test(".weak on a value type fails with weakRequiresClass, caches nothing, and fails again")
    func weakValueType() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Settings.self, scope: .weak) {
            builds.increment()
            return DefaultSettings()
        }
        for _ in 0..<2 {
            do {
                _ = try hive.resolve(Settings.self)
                Issue.record("expected weakRequiresClass")
            } catch let error as ServiceHiveError {
                guard case .weakRequiresClass(_, let instanceType) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(instanceType == "DefaultSettings")
            }
        }
        #expect(builds.current == 2)
    }

    @Test("a graph-scoped service is shared within one top-level resolve and fresh in the next")
    func graphScope() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { r in LiveReport(header: try r.resolve(), footer: try r.resolve()) }

        let first = try hive.resolve(Report.self)
        let second = try hive.resolve(Report.self)
        #expect(first.header === first.footer)
        #expect(first.header !== second.header)
        #expect(try hive.resolve(Clock.self) !== (try hive.resolve(Clock.self)))
    }

    @Test("a factory that resolves through the hive directly, not its resolver, shares the graph too")
    func graphScopeThroughDirectResolve() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { [unowned hive] in
            LiveReport(header: try hive.resolve(), footer: try hive.resolve())
        }

        let report = try hive.resolve(Report.self)
        #expect(report.header === report.footer)
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

    @Test("resetInstances drops singletons and weak instances and keeps the registrations")
    func resetInstances() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        let before = try hive.resolve(TradeService.self)
        weak let observed = before

        hive.resetInstances()
        let after = try hive.resolve(TradeService.self)
        #expect(before !== after)
        withExtendedLifetime(after) {}
        _ = consume before
        #expect(observed == nil, "the old singleton is released")
    }

    @Test("the shared hive is one process-wide hive")
    func sharedHive() {
        #expect(ServiceHive.shared === ServiceHive.shared)
    }
}
