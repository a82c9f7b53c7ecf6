import ServiceHive
import Support
import Testing

/// A module that declares what it needs and provides, logs every step, and registers what it is told to.
struct DeclaringModule: ServiceModule {
    let name: String
    var priority = 0
    var needs: [ServiceHive.ServiceReference] = []
    var provides: [ServiceHive.ServiceReference] = []
    let journal: Journal
    var register: @Sendable (ServiceHive) throws -> Void = { _ in }
    var onStart: @Sendable (ServiceHive) async throws -> Void = { _ in }

    func register(in hive: ServiceHive) throws {
        journal.write("register \(name)")
        try register(hive)
    }

    func start(in hive: ServiceHive) async throws {
        journal.write("start \(name)")
        try await onStart(hive)
    }

    func stop(in hive: ServiceHive) async {
        journal.write("stop \(name)")
    }
}

/// Shorter names for the references the tests declare.
extension ServiceHive.ServiceReference {
    static var trade: Self { .service(TradeService.self) }
    static var cart: Self { .service(Cart.self) }
    static var clock: Self { .service(Clock.self) }
    static var session: Self { .service(Session.self) }
}

@Suite("Modules that declare what they need and provide", .timeLimit(.minutes(5)))
struct ModuleDeclarationTests {
    /// A module that provides `TradeService` and registers it.
    func trade(_ journal: Journal, name: String = "Trade", priority: Int = 0) -> DeclaringModule {
        DeclaringModule(name: name, priority: priority, provides: [.trade], journal: journal) { hive in
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        }
    }

    /// A module that needs `TradeService`, and registers a `Cart` built from it.
    func orders(_ journal: Journal, name: String = "Orders", priority: Int = 0) -> DeclaringModule {
        DeclaringModule(name: name, priority: priority, needs: [.trade], journal: journal) { hive in
            try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        }
    }

    // MARK: - Order

    @Test("a module that needs a service registers and starts after the module that provides it, and stops before it")
    func needsOrder() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([orders(journal), trade(journal)])
        #expect(journal.lines == ["register Trade", "register Orders", "start Trade", "start Orders"])
        #expect(hive.installedModules == ["Trade", "Orders"])
        await hive.shutdown()
        #expect(journal.lines.suffix(2) == ["stop Orders", "stop Trade"])
    }

    @Test("a higher priority goes first among the modules free to go, but never before what the module needs")
    func priorityBreaksTies() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([
            orders(journal, name: "needy-high", priority: 10),
            DeclaringModule(name: "middle", priority: 5, journal: journal),
            DeclaringModule(name: "tie-a", priority: 1, journal: journal),
            trade(journal, name: "provider-low", priority: 1),
            DeclaringModule(name: "tie-b", priority: 1, journal: journal),
        ])
        #expect(hive.installedModules == ["middle", "tie-a", "provider-low", "needy-high", "tie-b"])
        #expect(journal.lines.prefix(5).map { $0.replacing("register ", with: "") } == hive.installedModules)
    }

    @Test("a chain of needs orders every module after what it needs, however the modules are given")
    func chain() async throws {
        let journal = Journal()
        let clock = DeclaringModule(name: "Clock", provides: [.clock], journal: journal) { hive in
            try hive.register(Clock.self) { SystemClock() }
        }
        let trade = DeclaringModule(name: "Trade", needs: [.clock], provides: [.trade], journal: journal) { hive in
            try hive.register(TradeService.self) { LiveTradeService() }
        }
        let orders = orders(journal)
        for given in [
            [orders, trade, clock], [trade, orders, clock], [clock, orders, trade], [orders, clock, trade],
        ] {
            let hive = ServiceHive()
            try await hive.install(given)
            #expect(hive.installedModules == ["Clock", "Trade", "Orders"], "given \(given.map(\.name))")
        }
    }

    @Test("modules that declare nothing install by priority, highest first, ties in the order given, as a stable sort")
    func undeclaredKeepPriorityOrder() async throws {
        var generator = SplitMix(seed: 29)
        for _ in 0..<100 {
            let priorities = (0..<6).map { _ in Int(generator.next() % 3) }
            let modules = priorities.enumerated().map { index, priority in
                DeclaringModule(name: "m\(index)", priority: priority, journal: Journal())
            }
            let hive = ServiceHive()
            try await hive.install(modules)
            let sorted = modules.enumerated().sorted { lhs, rhs in
                lhs.element.priority != rhs.element.priority
                    ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
            }
            #expect(hive.installedModules == sorted.map(\.element.name), "priorities \(priorities)")
        }
    }

    @Test("a module that lists a service twice needs it once")
    func repeats() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        var needy = orders(journal)
        needy.needs = [.trade, .trade]
        try await hive.install([needy, trade(journal)])
        #expect(hive.installedModules == ["Trade", "Orders"])
    }

    @Test("references are equal by type and name, and print as a service key")
    func references() {
        #expect(ServiceHive.ServiceReference.service(TradeService.self) == .trade)
        #expect(ServiceHive.ServiceReference.service(TradeService.self, name: "premium") != .trade)
        #expect(ServiceHive.ServiceReference.service(Cart.self) != .trade)
        #expect(
            ServiceHive.ServiceReference.service(TradeService.self, name: "premium").description
                == #"TradeService (name: "premium")"#)
        #expect(ServiceHive.ServiceReference.trade.key == ServiceHive.ServiceKey(TradeService.self))
    }

    // MARK: - Needs met by the hive

    @Test("a need is met by a registration the hive already has, whatever its arguments, or a parent has")
    func metByHive() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(TradeService.self) { LiveTradeService() }
        try await hive.install(orders(journal))
        #expect(try hive.resolve(Cart.self).trade.label == "live")

        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService(label: "parent's") }
        let child = ServiceHive(parent: parent)
        try await child.install(orders(journal))
        #expect(try child.resolve(Cart.self).trade.label == "parent's")

        let greeting = ServiceHive()
        try greeting.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try await greeting.install(
            DeclaringModule(name: "Welcome", needs: [.service(Greeter.self)], journal: journal))
        #expect(greeting.installedModules == ["Welcome"])
    }

    @Test("a named need is met by the registration of that name only")
    func namedNeeds() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        var premium = orders(journal, name: "Premium")
        premium.needs = [.service(TradeService.self, name: "premium")]
        try await hive.install(premium)
        let thrown = await asyncError { try await hive.install(orders(journal)) }
        guard case .unmetNeed("Orders", let service, _) = thrown else {
            Issue.record("expected unmetNeed for Orders, got \(String(describing: thrown))")
            return
        }
        #expect(service == ServiceHive.ServiceKey(TradeService.self))
    }

    @Test("a need that a module installed before provides is met, and the module goes after it whatever its priority")
    func metByEarlierInstall() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([trade(journal), DeclaringModule(name: "other", journal: journal)])
        try await hive.install([
            orders(journal, priority: 10), DeclaringModule(name: "late", priority: 5, journal: journal),
        ])
        #expect(hive.installedModules == ["late", "Trade", "Orders", "other"])
        await hive.shutdown()
        #expect(journal.lines.suffix(4) == ["stop other", "stop Orders", "stop Trade", "stop late"])
    }

    @Test("a module installed in a child hive may need what a module installed in its parent provides")
    func metByParentModule() async throws {
        let parent = ServiceHive()
        let journal = Journal()
        try await parent.install(trade(journal))
        let child = ServiceHive(parent: parent)
        try await child.install(orders(journal))
        #expect(child.installedModules == ["Orders"])
        #expect(try child.resolve(Cart.self).trade.label == "live")
    }

    // MARK: - Refused before any module registers

    @Test("an unmet need fails the install before any module registers, naming the module, the service and providers")
    func unmetNeed() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(Session.self) { LiveSession() }
        try await hive.install(
            DeclaringModule(name: "Sessions", provides: [.session], journal: journal) { hive in
                hive.unregister(Session.self)
                try hive.register(Session.self) { LiveSession() }
            })
        let before = snapshot(hive)
        let written = journal.lines.count
        let thrown = await asyncError {
            try await hive.install([
                DeclaringModule(
                    name: "Catalog", provides: [.cart, .service(Clock.self, name: "atomic")], journal: journal),
                orders(journal),
                DeclaringModule(name: "Quiet", journal: journal),
            ])
        }
        guard case .unmetNeed(let module, let service, let providers) = thrown else {
            Issue.record("expected unmetNeed, got \(String(describing: thrown))")
            return
        }
        #expect(module == "Orders" && service == ServiceHive.ServiceKey(TradeService.self))
        #expect(
            providers == [
                "Catalog": [ServiceHive.ServiceKey(Cart.self), ServiceHive.ServiceKey(Clock.self, name: "atomic")],
                "Sessions": [ServiceHive.ServiceKey(Session.self)],
            ])
        #expect(thrown?.code == 15)
        #expect(
            thrown?.description
                == "Module Orders needs TradeService, which no module of this install provides and the hive has not "
                + #"registered. Catalog provides Cart, Clock (name: "atomic"); Sessions provides Session. Nothing was "#
                + "registered. To fix, install Orders with the module that registers TradeService and lists it in its "
                + "`provides`, or register TradeService before installing: try hive.register(TradeService.self) { … }")
        #expect(journal.lines.count == written, "no module registered or started")
        #expect(snapshot(hive) == before)
        #expect(hive.installedModules == ["Sessions"])
    }

    @Test("an unmet need's error says when no module provides anything")
    func unmetNeedWithoutProviders() async throws {
        let thrown = await asyncError { try await ServiceHive().install(orders(Journal())) }
        #expect(
            thrown?.description
                == "Module Orders needs TradeService, which no module of this install provides and the hive has not "
                + "registered. No module lists a service in its `provides`. Nothing was registered. To fix, install "
                + "Orders with the module that registers TradeService and lists it in its `provides`, or register "
                + "TradeService before installing: try hive.register(TradeService.self) { … }")
    }

    @Test("a need that the hive's child provides, or only an override, is unmet: the install needs a registration")
    func notMetByChildOrOverride() async throws {
        let hive = ServiceHive()
        _ = hive.child { $0.provide(TradeService.self, LiveTradeService()) }
        await #expect(throws: ServiceHiveError.self) { try await hive.install(orders(Journal())) }
        await hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let thrown = await asyncError { try await hive.install(orders(Journal())) }
            #expect(thrown?.code == 15)
        }
    }

    @Test("a cycle among the needs fails before any module registers, and names the cycle with its services")
    func cycle() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let thrown = await asyncError {
            try await hive.install([
                DeclaringModule(name: "Outside", needs: [.trade], journal: journal),
                DeclaringModule(name: "Ledger", needs: [.clock], provides: [.trade], journal: journal),
                DeclaringModule(name: "Billing", needs: [.trade], provides: [.cart], journal: journal),
                DeclaringModule(name: "Timer", needs: [.cart], provides: [.clock], journal: journal),
            ])
        }
        guard case .moduleCycle(let modules, let services) = thrown else {
            Issue.record("expected moduleCycle, got \(String(describing: thrown))")
            return
        }
        #expect(modules == ["Ledger", "Timer", "Billing", "Ledger"])
        #expect(services.map(\.service) == ["Clock", "Cart", "TradeService"])
        #expect(thrown?.code == 16)
        #expect(
            thrown?.description
                == "Modules need each other in a cycle: Ledger → Timer → Billing → Ledger. Ledger needs Clock, which "
                + "Timer provides; Timer needs Cart, which Billing provides; Billing needs TradeService, which Ledger "
                + "provides. No module of the cycle can go first, so nothing was registered. To fix, move the services "
                + "they need from each other into a module of their own that they need; or, where a module uses "
                + "another's service only once the app runs, not while it registers or starts, take that service out "
                + "of its `needs`.")
        #expect(journal.lines.isEmpty)
        #expect(hive.registrations.isEmpty && hive.installedModules.isEmpty)
    }

    @Test("a module that both needs and provides a service is refused before any module registers")
    func conflictingDeclaration() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let thrown = await asyncError {
            try await hive.install([
                trade(journal, name: "Fine"),
                DeclaringModule(name: "Confused", needs: [.clock, .cart], provides: [.cart], journal: journal),
            ])
        }
        guard case .conflictingDeclaration("Confused", let service) = thrown else {
            Issue.record("expected conflictingDeclaration, got \(String(describing: thrown))")
            return
        }
        #expect(service == ServiceHive.ServiceKey(Cart.self))
        #expect(thrown?.code == 18)
        #expect(
            thrown?.description
                == "Module Confused lists Cart in both its `needs` and its `provides`. Nothing was registered. To fix, "
                + "keep it in `provides` if the module registers it, or in `needs` if another module or the hive "
                + "provides it.")
        #expect(journal.lines.isEmpty && hive.registrations.isEmpty)
    }

    @Test("two modules of one install that provide the same service are refused, naming both")
    func duplicateProvision() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let thrown = await asyncError {
            try await hive.install([trade(journal, name: "Standard"), orders(journal), trade(journal, name: "Legacy")])
        }
        guard case .duplicateProvision(let service, let modules) = thrown else {
            Issue.record("expected duplicateProvision, got \(String(describing: thrown))")
            return
        }
        #expect(service == ServiceHive.ServiceKey(TradeService.self) && modules == ["Standard", "Legacy"])
        #expect(thrown?.code == 19)
        #expect(
            thrown?.description
                == "Modules Standard and Legacy both list TradeService in their `provides`, and a service has one "
                + "provider. Nothing was registered. To fix, keep it in the `provides` of the one module that "
                + "registers it; to offer several, register them under names and provide "
                + ".service(TradeService.self, name: …) from each.")
        #expect(journal.lines.isEmpty && hive.registrations.isEmpty)
    }

    @Test("a later install may provide what an earlier module provides only by replacing its registration")
    func provisionAcrossInstalls() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install(trade(journal, name: "Standard"))
        let colliding = await asyncError { try await hive.install(trade(journal, name: "Second")) }
        guard case .moduleFailed("Second", .registration, let underlying) = colliding else {
            Issue.record("expected the registration to collide, got \(String(describing: colliding))")
            return
        }
        #expect(underlying is ServiceHiveError)

        var replacing = trade(journal, name: "Replacing")
        replacing.register = { hive in
            hive.unregister(TradeService.self)
            try hive.register(TradeService.self) { PremiumTradeService() }
        }
        try await hive.install(replacing)
        #expect(try hive.resolve(TradeService.self).label == "premium")
        #expect(hive.installedModules == ["Standard", "Replacing"])
    }

    // MARK: - Provisions checked after registering

    @Test("a module that does not register what it provides fails the install, names both, and rolls it back")
    func provisionMissing() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(Session.self) { LiveSession() }
        let before = snapshot(hive)
        let thrown = await asyncError {
            try await hive.install([
                DeclaringModule(name: "Early", provides: [.cart], journal: journal) { hive in
                    try hive.register(Cart.self) { LiveCart(trade: LiveTradeService()) }
                },
                DeclaringModule(name: "Broken", provides: [.trade], journal: journal) { hive in
                    try hive.register(Clock.self) { SystemClock() }
                    try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
                },
                orders(journal),
            ])
        }
        guard case .provisionMissing("Broken", let service, let registered) = thrown else {
            Issue.record("expected provisionMissing, got \(String(describing: thrown))")
            return
        }
        #expect(service == ServiceHive.ServiceKey(TradeService.self))
        #expect(registered.map(\.description) == ["Clock", #"TradeService (name: "premium")"#])
        #expect(thrown?.code == 17)
        #expect(
            thrown?.description
                == "Module Broken lists TradeService in its `provides`, but did not register it in register(in:); it "
                + #"registered Clock, TradeService (name: "premium"). Every registration of this install was rolled "#
                + "back. To fix, register TradeService in the module's register(in:), or take it out of its "
                + "`provides`.")
        #expect(journal.lines == ["register Early", "register Broken"], "Orders never registers; nothing starts")
        #expect(snapshot(hive) == before)
        #expect(hive.installedModules.isEmpty)
    }

    @Test("a provision registered only in start does not count: it fails after registering, before any start")
    func provisionInStart() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let late = DeclaringModule(
            name: "Late", provides: [.clock], journal: journal,
            onStart: { hive in try hive.register(Clock.self) { SystemClock() } })
        let thrown = await asyncError {
            try await hive.install([late, DeclaringModule(name: "Next", journal: journal)])
        }
        #expect(
            thrown?.description
                == "Module Late lists Clock in its `provides`, but did not register it in register(in:); it registered "
                + "nothing. Every registration of this install was rolled back. To fix, register Clock in the "
                + "module's register(in:), or take it out of its `provides`.")
        #expect(journal.lines == ["register Late"])
        #expect(!hive.isRegistered(Clock.self))
    }

    @Test("a provision registered and then unregistered by the module does not count")
    func provisionUnregistered() async throws {
        let hive = ServiceHive()
        let fickle = DeclaringModule(name: "Fickle", provides: [.clock], journal: Journal()) { hive in
            try hive.register(Clock.self) { SystemClock() }
            hive.unregister(Clock.self)
        }
        let thrown = await asyncError { try await hive.install(fickle) }
        guard case .provisionMissing("Fickle", _, let registered) = thrown else {
            Issue.record("expected provisionMissing, got \(String(describing: thrown))")
            return
        }
        #expect(registered.isEmpty)
        #expect(hive.registrations.isEmpty)
    }

    @Test("a provision is met by a registration with runtime arguments, a forward, or a name, as declared")
    func provisionForms() async throws {
        let hive = ServiceHive()
        let forms = DeclaringModule(
            name: "Forms",
            provides: [.service(Greeter.self), .trade, .service(TradeService.self, name: "premium")],
            journal: Journal()
        ) { hive in
            try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
            try hive.register(LiveTradeService.self, scope: .singleton) { LiveTradeService() }
            try hive.forward(TradeService.self, to: LiveTradeService.self) { $0 }
            try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        }
        try await hive.install(forms)
        #expect(hive.installedModules == ["Forms"])
    }

    // MARK: - A resolve that misses a need

    @Test("a resolve or a validation that misses a service an installed module needs names the module")
    func missNamesTheNeedingModule() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try await hive.install(orders(Journal()))
        hive.unregister(TradeService.self)

        let expected =
            "TradeService is not registered (needed by Cart); module Orders needs it (declared in its `needs`), so "
            + "it was registered when Orders was installed and has been unregistered since. To fix, register it "
            + "again: try hive.register(TradeService.self) { … }"
        #expect(error { _ = try hive.resolve(Cart.self) }?.description == expected)
        let report = hive.validate()
        #expect(report.failures.map(\.error.description) == [expected])
        let child = ServiceHive(parent: hive)
        #expect(error { _ = try child.resolve(Cart.self) }?.description == expected, "a child searches its parent")
        #expect(try hive.resolve((any TradeService)?.self) == nil, "an Optional still resolves to nil")
        #expect(
            error { _ = try hive.resolve(Clock.self) }?.description
                == "Clock is not registered. To fix, register it before resolving: "
                + "try hive.register(Clock.self) { … }",
            "a service no module needs is reported as before")
    }

    @Test("a miss that several modules need names them all, and a named need matches its name only")
    func missNamesEveryNeedingModule() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        var premium = DeclaringModule(name: "Premium", journal: Journal())
        premium.needs = [.service(TradeService.self, name: "premium")]
        let returns = DeclaringModule(name: "Returns", needs: [.trade], journal: Journal())
        try await hive.install([orders(Journal()), returns, premium])
        hive.removeAll()
        #expect(
            error { _ = try hive.resolve(TradeService.self) }?.description
                == "TradeService is not registered; modules Orders and Returns need it (declared in their `needs`), "
                + "so it was registered when they were installed and has been unregistered since. To fix, register "
                + "it again: try hive.register(TradeService.self) { … }")
        #expect(
            error { _ = try hive.resolve(TradeService.self, name: "premium") }?.description.contains(
                "; module Premium needs it (declared in its `needs`)") == true)
    }
}
