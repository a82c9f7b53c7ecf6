import ServiceHive
import Support
import Testing

/// Everything observable about a hive's registrations, to check that a misuse changed nothing.
func snapshot(_ hive: ServiceHive) -> String {
    hive.description + "\n" + hive.registrations.map(\.description).joined(separator: "\n")
}

@Suite("Bad input gets its typed error and leaves the hive unchanged", .timeLimit(.minutes(5)))
struct BadInputTests {
    enum Arguments: CaseIterable, Sendable {
        case none, one, two
    }

    /// Registers `TradeService` under `name` with the given argument list, labelled so the test can tell which
    /// registration answered.
    func register(_ hive: ServiceHive, name: String?, arguments: Arguments, label: String) throws {
        switch arguments {
        case .none:
            try hive.register(TradeService.self, name: name) { LiveTradeService(label: label) }
        case .one:
            try hive.register(TradeService.self, name: name) { (_: ServiceHive.Resolver, _: Int) in
                LiveTradeService(label: label)
            }
        case .two:
            try hive.register(TradeService.self, name: name) { (_: ServiceHive.Resolver, _: Int, _: String) in
                LiveTradeService(label: label)
            }
        }
    }

    func resolve(_ hive: ServiceHive, name: String?, arguments: Arguments) throws -> String {
        switch arguments {
        case .none: return try hive.resolve(TradeService.self, name: name).label
        case .one: return try hive.resolve(TradeService.self, name: name, arguments: 1).label
        case .two: return try hive.resolve(TradeService.self, name: name, arguments: 1, "x").label
        }
    }

    @Test(
        "a duplicate registration is refused for every combination of name and arguments, and changes nothing",
        arguments: [nil, "named"] as [String?], Arguments.allCases)
    func duplicates(name: String?, arguments: Arguments) throws {
        let hive = ServiceHive()
        // Every other combination is registered too, to show that only the exact key collides.
        for otherName in [nil, "named"] as [String?] {
            for otherArguments in Arguments.allCases {
                try register(hive, name: otherName, arguments: otherArguments, label: "first")
            }
        }
        let before = snapshot(hive)

        let thrown = error { try register(hive, name: name, arguments: arguments, label: "second") }
        guard case .alreadyRegistered(let key, _, _) = thrown else {
            Issue.record("expected alreadyRegistered, got \(String(describing: thrown))")
            return
        }
        #expect(key.name == name)
        #expect(key.argumentTypes.count == [Arguments.none: 0, .one: 1, .two: 2][arguments])
        #expect(snapshot(hive) == before)
        #expect(try resolve(hive, name: name, arguments: arguments) == "first")
    }

    @Test("resolving with wrong argument types fails with argumentMismatch, runs no factory, changes nothing")
    func wrongArgumentTypes() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in
            builds.increment()
            return LiveGreeter(name: name)
        }
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        let before = snapshot(hive)

        let attempts: [() throws -> Void] = [
            { _ = try hive.resolve(Greeter.self, arguments: 42) },
            { _ = try hive.resolve(Greeter.self, arguments: "Mimi", 2) },
            { _ = try hive.resolve(Greeter.self) },
            { _ = try hive.resolve(TradeService.self, arguments: "unexpected") },
        ]
        for attempt in attempts {
            guard case .argumentMismatch = error(from: attempt) else {
                Issue.record("expected argumentMismatch")
                continue
            }
        }
        #expect(builds.current == 0)
        #expect(snapshot(hive) == before)
    }

    @Test(".weak on a value type fails with weakRequiresClass every time, caching nothing, changing nothing")
    func weakOnValueType() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Settings.self, scope: .weak) {
            builds.increment()
            return DefaultSettings()
        }
        let before = snapshot(hive)
        for attempt in 1...3 {
            guard case .weakRequiresClass = error(from: { _ = try hive.resolve(Settings.self) }) else {
                Issue.record("expected weakRequiresClass")
                continue
            }
            #expect(builds.current == attempt, "the factory runs again: nothing was cached")
        }
        #expect(snapshot(hive) == before)
    }

    @Test(
        "a factory that throws, then succeeds, then throws again gives factoryFailed, an instance, factoryFailed",
        arguments: [ServiceHive.Scope.transient, .singleton, .graph, .weak])
    func throwSucceedThrow(scope: ServiceHive.Scope) throws {
        let hive = ServiceHive()
        let calls = Locked(0)
        try hive.register(TradeService.self, scope: scope) {
            let call = calls.increment()
            if call != 2 { throw DatabaseOffline() }
            return LiveTradeService(label: "call 2")
        }
        let before = snapshot(hive)

        guard case .factoryFailed(_, _, let first) = error(from: { _ = try hive.resolve(TradeService.self) }) else {
            Issue.record("expected factoryFailed")
            return
        }
        #expect(first is DatabaseOffline)
        let instance = try hive.resolve(TradeService.self)
        #expect(instance.label == "call 2")
        hive.resetInstances()  // so that a singleton's factory runs again
        guard case .factoryFailed = error(from: { _ = try hive.resolve(TradeService.self) }) else {
            Issue.record("expected factoryFailed again")
            return
        }
        #expect(calls.current == 3)
        // The third failure cached nothing: the next resolve runs the factory once more.
        _ = error(from: { _ = try hive.resolve(TradeService.self) })
        #expect(calls.current == 4)
        #expect(snapshot(hive) == before)
        withExtendedLifetime(instance) {}
    }

    @Test("a factory that unregisters its own registration finishes for its caller, caches nothing, and is gone")
    func factoryUnregistersItself() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { [unowned hive] in
            hive.unregister(TradeService.self)
            return LiveTradeService(label: "built while being removed")
        }
        #expect(try hive.resolve(TradeService.self).label == "built while being removed")
        #expect(!hive.isRegistered(TradeService.self))
        guard case .notRegistered = error(from: { _ = try hive.resolve(TradeService.self) }) else {
            Issue.record("expected notRegistered")
            return
        }
    }

    @Test("a factory that registers a duplicate of itself gets alreadyRegistered, unwrapped, and nothing is cached")
    func factoryRegistersDuplicate() throws {
        let hive = ServiceHive()
        let calls = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) { [unowned hive] in
            calls.increment()
            try hive.register(TradeService.self) { LiveTradeService() }
            return LiveTradeService()
        }
        let before = snapshot(hive)
        for attempt in 1...2 {
            guard case .alreadyRegistered = error(from: { _ = try hive.resolve(TradeService.self) }) else {
                Issue.record("expected alreadyRegistered")
                continue
            }
            #expect(calls.current == attempt)
        }
        #expect(snapshot(hive) == before)
    }

    @Test("a factory that registers other services while it is being resolved sees them registered")
    func factoryRegistersOthers() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { [unowned hive] r in
            if !hive.isRegistered(TradeService.self) {
                try hive.register(TradeService.self, scope: .singleton) { LiveTradeService(label: "late") }
            }
            return LiveCart(trade: try r.resolve())
        }
        #expect(try hive.resolve(Cart.self).trade.label == "late")
        #expect(try hive.resolve(Cart.self).trade.label == "late")
        #expect(hive.registrations.map(\.service) == ["Cart", "TradeService"])
    }

    @Test("a chain longer than the depth limit fails with resolutionTooDeep naming the limit, and changes nothing")
    func chainBeyondTheLimit() async throws {
        let hive = ServiceHive()
        let depth = ServiceHive.maximumResolutionDepth + 50
        for level in 0..<depth {
            try hive.register(TradeService.self, name: "\(level)") { r in
                guard level < depth - 1 else { return LiveTradeService() }
                return try r.resolve(TradeService.self, name: "\(level + 1)")
            }
        }
        let before = snapshot(hive)
        let outcomes = try await onThreads(1, stackSize: 64 << 20) { _ in
            Result { try hive.resolve(TradeService.self, name: "0") }
        }
        let thrown = error(in: outcomes[0])
        guard case .resolutionTooDeep(_, let chain, let limit) = thrown else {
            Issue.record("expected resolutionTooDeep, got \(String(describing: thrown))")
            return
        }
        #expect(limit == 1_024)
        #expect(chain.count == 1_024)
        #expect(thrown?.description.contains("the limit is ServiceHive.maximumResolutionDepth") == true)
        #expect(snapshot(hive) == before)
    }
}
