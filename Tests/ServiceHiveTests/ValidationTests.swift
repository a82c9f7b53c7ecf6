import ServiceHive
import Support
import Testing

@Suite("Validation and introspection", .timeLimit(.minutes(5)))
struct ValidationTests {
    @Test("a sound hive validates: every registration passes and argument registrations are skipped")
    func soundHive() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

        let report = hive.validate()
        #expect(report.isValid)
        #expect(report.failures.isEmpty)
        #expect(report.passed.map(\.service) == ["TradeService", "Cart", "Clock"])
        #expect(report.skipped.map(\.key.description) == ["Greeter (arguments: String)"])
        #expect(report.description.hasPrefix("Validated 4 registrations: 3 passed, 0 failed, 1 skipped."))
    }

    @Test("validate reports every failure at once: a missing dependency with its chain, a cycle, a factory error")
    func everyFailure() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(Chicken.self) { r in LiveChicken(egg: try r.resolve()) }
        try hive.register(Egg.self) { r in LiveEgg(chicken: try r.resolve()) }
        try hive.register(Session.self) { throw DatabaseOffline() }
        try hive.register(Clock.self) { SystemClock() }

        let report = hive.validate()
        #expect(!report.isValid)
        #expect(report.passed.map(\.service) == ["Clock"])
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.registration.service, $0.error) })
        guard case .notRegistered(let missing, let chain) = failures["Cart"] else {
            Issue.record("Cart: expected notRegistered")
            return
        }
        #expect(missing.service == "TradeService")
        #expect(chain.map(\.service) == ["Cart"])
        #expect(failures["Chicken"]?.cycle == ["Chicken", "Egg", "Chicken"])
        #expect(failures["Egg"]?.cycle == ["Egg", "Chicken", "Egg"])
        guard case .factoryFailed(_, _, let underlying) = failures["Session"] else {
            Issue.record("Session: expected factoryFailed")
            return
        }
        #expect(underlying is DatabaseOffline)
        #expect(report.description.contains("FAILED Cart"))
    }

    @Test("validate leaves no trace: no cached instance, nothing retained, singletons still built once after")
    func noTrace() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        try hive.register(Session.self, scope: .weak) { LiveSession() }
        let observed = Locked<[WeakReference]>([])
        try hive.register(Clock.self, scope: .singleton) {
            let clock = SystemClock()
            observed.withLock { $0.append(WeakReference(clock)) }
            return clock
        }

        #expect(hive.validate().isValid)
        #expect(builds.current == 1)
        #expect(observed.current.allSatisfy { $0.object == nil }, "the sandbox's instances were released")

        let first = try hive.resolve(TradeService.self)
        #expect(builds.current == 2, "the real singleton was not cached by validation")
        #expect(first === (try hive.resolve(TradeService.self)))
    }

    @Test("registrations list service, name, scope, argument types, module and place, sortable and printable")
    func registrations() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, name: "premium", scope: .singleton, file: "Trade/Trade.swift", line: 7) {
            PremiumTradeService()
        }
        try hive.register(Greeter.self, file: "App/Greeter.swift", line: 3) { (_: ServiceHive.Resolver, name: String) in
            LiveGreeter(name: name)
        }

        let listed = hive.registrations
        #expect(listed.map(\.service) == ["TradeService", "Greeter"], "in registration order")
        let sorted = listed.sorted()
        #expect(sorted.map(\.service) == ["Greeter", "TradeService"])
        #expect(sorted[0].argumentTypes == ["String"])
        #expect(sorted[0].scope == .transient)
        #expect(sorted[1].name == "premium")
        #expect(sorted[1].site == ServiceHive.RegistrationSite(fileID: "Trade/Trade.swift", line: 7))
        #expect(
            "\(sorted[1])" == "TradeService (name: \"premium\"), singleton, at Trade/Trade.swift:7")

        let expected = [
            "ServiceHive: 2 registrations",
            "Service       Name     Scope      Arguments  Module  Registered at",
            "Greeter       -        transient  String     -       App/Greeter.swift:3",
            "TradeService  premium  singleton  -          -       Trade/Trade.swift:7",
        ]
        #expect(hive.description == expected.joined(separator: "\n"))
    }

    @Test("a child lists its own registrations, and validates everything it can see, its parent's included")
    func childIntrospection() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService() }
        let child = ServiceHive(parent: parent)
        try child.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        #expect(child.registrations.map(\.service) == ["Cart"])
        #expect(child.visibleRegistrations.map(\.service) == ["Cart", "TradeService"])
        let report = child.validate()
        #expect(report.isValid)
        #expect(report.passed.map(\.service) == ["Cart", "TradeService"])
    }

    @Test("a child's validation leaves no trace in any hive: no parent singleton and no other hive's is cached")
    func childValidationLeavesNoTrace() throws {
        let builds = Locked(0)
        let other = ServiceHive()
        try other.register(Session.self, scope: .singleton) {
            builds.increment()
            return LiveSession()
        }
        let parent = ServiceHive()
        try parent.register(Clock.self, scope: .singleton) { _ in
            _ = try other.resolve(Session.self)
            builds.increment()
            return SystemClock()
        }
        let child = ServiceHive(parent: parent)
        try child.register(Report.self) { r in LiveReport(header: try r.resolve(), footer: try r.resolve()) }
        #expect(child.validate().isValid)
        #expect(builds.current == 2)
        _ = try child.resolve(Report.self)
        #expect(builds.current == 4, "nothing validation built was cached: both singletons were built again")
    }

    @Test("validation with samples checks request-scoped services and argument registrations instead of skipping")
    func validationWithSamples() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Greeter.self, name: "failing") { (_: ServiceHive.Resolver, times: Int) in
            guard times > 0 else { throw DatabaseOffline() }
            return LiveGreeter(name: "x", times: times)
        }
        let plain = hive.validate()
        #expect(plain.failures.map(\.registration.service) == ["Cart"])
        #expect(plain.skipped.count == 2)

        let sampled = hive.validate { plan in
            plan.provide(Session.self, LiveSession())
            plan.arguments(for: Greeter.self, "Mimi")
            plan.arguments(for: Greeter.self, name: "failing", 0)
        }
        #expect(sampled.passed.map(\.service) == ["Cart", "Greeter"])
        #expect(sampled.skipped.isEmpty)
        #expect(sampled.failures.map(\.registration.name) == ["failing"])
        #expect(!hive.isRegistered(Session.self), "the sample was for validation only")
    }

    @Test("validate skips async factories; validateAsync builds them, reports their failures, and leaves no trace")
    func asyncFactories() async throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Database.self, scope: .singleton) { _ async throws in
            builds.withLock { $0 += 1 }
            return try await LiveDatabase.connect(milliseconds: 1)
        }
        try hive.register(Database.self, name: "offline") { _ async throws -> any Database in throw DatabaseOffline() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        let synchronous = hive.validate()
        #expect(synchronous.skipped.map(\.service) == ["Database", "Database"])
        #expect(synchronous.failures.map(\.registration.service) == ["Cart"])

        let awaited = await hive.validateAsync()
        #expect(awaited.skipped.isEmpty)
        #expect(awaited.passed.map(\.service) == ["Database"])
        #expect(awaited.failures.map(\.registration.service).sorted() == ["Cart", "Database"])
        #expect(builds.current == 1)
        _ = try await hive.resolveAsync(Database.self)
        #expect(builds.current == 2, "the singleton validation built was not kept")
    }
}

/// A weak reference to a clock, to check that it was released.
struct WeakReference: Sendable {
    weak var object: (any Clock)?
    init(_ object: any Clock) { self.object = object }
}
