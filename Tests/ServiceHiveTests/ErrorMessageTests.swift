import ServiceHive
import Support
import Testing

@Suite("Error messages name the service and say how to fix it", .timeLimit(.minutes(5)))
struct ErrorMessageTests {
    @Test("notRegistered for a direct resolve")
    func notRegistered() {
        let hive = ServiceHive()
        let thrown = error { _ = try hive.resolve(TradeService.self) }
        #expect(
            thrown?.description
                == "TradeService is not registered. To fix, register it before resolving: "
                + "try hive.register(TradeService.self) { … }")
    }

    @Test("notRegistered for a name gives the name in the fix")
    func notRegisteredNamed() {
        let hive = ServiceHive()
        let thrown = error { _ = try hive.resolve(TradeService.self, name: "premium") }
        #expect(
            thrown?.description
                == "TradeService (name: \"premium\") is not registered. To fix, register it before resolving: "
                + "try hive.register(TradeService.self, name: \"premium\") { … }")
    }

    @Test("notRegistered raised inside a factory passes through unwrapped and shows the chain that led there")
    func notRegisteredInsideFactory() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(Report.self) { r in
            _ = try r.resolve(Cart.self)
            return LiveReport(header: SystemClock(), footer: SystemClock())
        }

        let thrown = error { _ = try hive.resolve(Report.self) }
        guard case .notRegistered(let key, let chain) = thrown else {
            Issue.record("expected notRegistered, got \(String(describing: thrown))")
            return
        }
        #expect(key.service == "TradeService")
        #expect(chain.map(\.service) == ["Report", "Cart"])
        #expect(
            thrown?.description
                == "TradeService is not registered (needed by Report → Cart). To fix, register it before "
                + "resolving: try hive.register(TradeService.self) { … }")
    }

    @Test("alreadyRegistered names both places and the ways out")
    func alreadyRegistered() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, file: "Trade/TradeModule.swift", line: 12) { LiveTradeService() }
        let thrown = error {
            try hive.register(TradeService.self, file: "App/main.swift", line: 30) { LiveTradeService() }
        }
        #expect(
            thrown?.description
                == "TradeService is already registered at Trade/TradeModule.swift:12; the registration at "
                + "App/main.swift:30 was rejected. To fix, give one of them a name:, unregister the first, or swap "
                + "it in tests with withOverrides.")
    }

    @Test("circularDependency prints the whole chain in order")
    func circularDependency() throws {
        let hive = ServiceHive()
        try hive.register(Chicken.self) { r in LiveChicken(egg: try r.resolve()) }
        try hive.register(Egg.self) { r in LiveEgg(chicken: try r.resolve()) }

        let thrown = error { _ = try hive.resolve(Chicken.self) }
        #expect(
            thrown?.description
                == "Circular dependency: Chicken → Egg → Chicken. To fix, break the cycle, for example where Chicken "
                + "resolves Egg: resolve ServiceHive.Lazy<Egg> or ServiceHive.Provider<Egg> instead, which resolve "
                + "Egg only when it is used, or keep the ServiceHive.Resolver and resolve Egg after construction.")
    }

    @Test("factoryFailed includes the underlying error's description and the chain")
    func factoryFailed() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { throw DatabaseOffline() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        let direct = error { _ = try hive.resolve(TradeService.self) }
        #expect(
            direct?.description
                == "The factory for TradeService threw: database offline. To fix, make the factory succeed; nothing "
                + "was cached, so the next resolve runs it again.")

        let nested = error { _ = try hive.resolve(Cart.self) }
        guard case .factoryFailed(let key, let chain, let underlying) = nested else {
            Issue.record("expected factoryFailed for TradeService, unwrapped through Cart")
            return
        }
        #expect(key.service == "TradeService")
        #expect(chain.map(\.service) == ["Cart"])
        #expect(underlying is DatabaseOffline)
        #expect(nested?.description.hasPrefix("The factory for TradeService (needed by Cart) threw:") == true)
    }

    @Test("argumentMismatch for wrong argument types")
    func wrongArgumentTypes() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

        let thrown = error { _ = try hive.resolve(Greeter.self, arguments: 42) }
        #expect(
            thrown?.description
                == "Greeter takes arguments (String), but was resolved with arguments (Int). To fix, pass exactly "
                + "the registered argument types: try hive.resolve(Greeter.self, arguments: …)")
    }

    @Test("argumentMismatch for arguments passed to a registration that takes none")
    func argumentsToPlainRegistration() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { LiveGreeter(name: "nobody") }

        let thrown = error { _ = try hive.resolve(Greeter.self, arguments: "Mimi") }
        #expect(
            thrown?.description
                == "Greeter takes no arguments, but was resolved with arguments (String). To fix, pass exactly the "
                + "registered argument types: try hive.resolve(Greeter.self)")
    }

    @Test("argumentMismatch for no arguments passed to registrations that need them lists each argument list")
    func noArgumentsForArgumentRegistration() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

        let thrown = error { _ = try hive.resolve(Greeter.self) }
        #expect(
            thrown?.description
                == "Greeter takes arguments (String), but was resolved with no arguments. To fix, pass exactly the "
                + "registered argument types: try hive.resolve(Greeter.self, arguments: …)")

        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String, times: Int) in
            LiveGreeter(name: name, times: times)
        }
        guard case .argumentMismatch(_, let registered, _) = error(from: { _ = try hive.resolve(Greeter.self) })
        else {
            Issue.record("expected argumentMismatch")
            return
        }
        #expect(Set(registered) == [["String"], ["String", "Int"]])
    }

    @Test("weakRequiresClass names the value type and the alternatives")
    func weakRequiresClass() throws {
        let hive = ServiceHive()
        try hive.register(Settings.self, scope: .weak) { DefaultSettings() }

        let thrown = error { _ = try hive.resolve(Settings.self) }
        #expect(
            thrown?.description
                == "Settings is registered .weak, but its factory returned DefaultSettings, which is not a class "
                + "instance, so the hive cannot hold it weakly. To fix, return a class instance, or register "
                + "Settings as .singleton or .transient.")
    }

    @Test("resolutionTooDeep names the limit and abbreviates the chain")
    func resolutionTooDeep() async throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (r: ServiceHive.Resolver, depth: Int) in
            try r.resolve(Greeter.self, arguments: depth + 1)
        }

        // A large stack, so the depth limit comes before the stack reserve in every build configuration.
        let outcomes = try await onThreads(1, stackSize: 64 << 20) { _ in
            Result { try hive.resolve(Greeter.self, arguments: 0) }
        }
        let thrown = error(in: outcomes[0])
        guard case .resolutionTooDeep(_, let chain, let limit) = thrown else {
            Issue.record("expected resolutionTooDeep, got \(String(describing: thrown))")
            return
        }
        #expect(limit == ServiceHive.maximumResolutionDepth)
        #expect(chain.count == ServiceHive.maximumResolutionDepth)
        let link = "Greeter (arguments: Int)"
        let head = Array(repeating: link, count: 5).joined(separator: " → ")
        let expected =
            "Resolving \(link) nested more than 1024 factories (\(head) → … 1014 more … → \(head)). To fix, look "
            + "for a chain of factories that never ends; the limit is ServiceHive.maximumResolutionDepth."
        #expect(thrown?.description == expected)
    }

    @Test("notRegistered for a name lists the names that are registered for the service")
    func notRegisteredListsNames() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, name: "standard") { LiveTradeService() }
        try hive.register(TradeService.self, name: "member") { LiveTradeService() }
        let thrown = error { _ = try hive.resolve(TradeService.self, name: "gold") }
        #expect(
            thrown?.description
                == "TradeService (name: \"gold\") is not registered. Registered names: member, standard. To fix, "
                + "register it before resolving: try hive.register(TradeService.self, name: \"gold\") { … }")
        try hive.register(TradeService.self) { LiveTradeService() }
        let again = error { _ = try hive.resolve(TradeService.self, name: "gold") }
        #expect(
            again?.description.contains("Registered names: member, standard, and the registration without a name")
                == true)
    }

    @Test("notRegistered for a service that child hives provide says to resolve it from the child")
    func notRegisteredProvidedByChildren() throws {
        let app = ServiceHive()
        try app.register(Cart.self) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        let request = app.child { $0.provide(Session.self, LiveSession()) }
        _ = try request.resolve(Cart.self)
        let thrown = error { _ = try app.resolve(Cart.self) }
        #expect(
            thrown?.description
                == "Session is not registered (needed by Cart); child hives provide it, for example per request. "
                + "To fix, resolve from the child hive that provides it, made with hive.child { $0.provide(Session.self, "
                + "…) }, or register it here: try hive.register(Session.self) { … }")
    }

    @Test("notOverridden names the service and says how to override it")
    func notOverridden() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        let thrown = error {
            try hive.withOverrides(strict: true) { _ in
            } operation: {
                _ = try hive.resolve(TradeService.self)
            }
        }
        #expect(
            thrown?.description
                == "TradeService is not overridden in this strict withOverrides. To fix, override it in the configure "
                + "closure: $0.register(TradeService.self) { … }, or leave strict off.")
    }

    @Test("every case has its own stable code, from 1 to 14, below the codes of the other libraries' errors")
    func codes() {
        let key = ServiceHive.ServiceKey(service: "TradeService")
        let site = ServiceHive.RegistrationSite(fileID: "A.swift", line: 1)
        let errors: [(ServiceHiveError, Int)] = [
            (.notRegistered(key, chain: []), 1),
            (.alreadyRegistered(key, existing: site, rejected: site), 2),
            (.circularDependency([key, key]), 3),
            (.factoryFailed(key, chain: [], underlying: DatabaseOffline()), 4),
            (.argumentMismatch(key, registered: [], chain: []), 5),
            (.weakRequiresClass(key, instanceType: "Int"), 6),
            (.resolutionTooDeep(key, chain: [], limit: 1), 7),
            (.stackExhausted(key, chain: []), 8),
            (.moduleFailed(module: "M", stage: .registration, underlying: DatabaseOffline()), 9),
            (.hiveReleased(key), 10),
            (.notOverridden(key, chain: []), 11),
            (.requiresAsync(key, chain: []), 12),
            (.registrationRefused(key, reason: "r", fix: "f"), 13),
            (.notSendable(key, chain: []), 14),
        ]
        for (error, code) in errors {
            #expect(error.code == code, "\(error)")
            #expect(!error.description.hasPrefix("ServiceHiveError (code"), "every case has a message of its own")
        }
        #expect(Set(errors.map(\.1)).count == errors.count, "no two cases share a code")
    }
}
