import ServiceHive
import Support
import Testing

/// A log the test modules write to, to check the order of calls.
final class Journal: Sendable {
    private let entries = Locked<[String]>([])
    func write(_ entry: String) { entries.withLock { $0.append(entry) } }
    var lines: [String] { entries.current }
}

struct Restock: ServiceModuleEvent {
    let quantity: Int
}

struct Unhandled: ServiceModuleEvent {}

/// A module whose every step is logged, and which fails where told to.
struct RecordingModule: ServiceModule {
    let name: String
    let priority: Int
    let journal: Journal
    var failRegistration = false
    var failStart = false
    var register: @Sendable (ServiceHive) throws -> Void = { _ in }
    var onStart: @Sendable (ServiceHive) async throws -> Void = { _ in }

    func register(in hive: ServiceHive) throws {
        journal.write("register \(name)")
        try register(hive)
        if failRegistration { throw DatabaseOffline() }
    }

    func start(in hive: ServiceHive) async throws {
        journal.write("start \(name)")
        try await onStart(hive)
        if failStart { throw DatabaseOffline() }
    }

    func stop(in hive: ServiceHive) async {
        journal.write("stop \(name)")
    }

    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        guard let restock = event as? Restock else { return }
        journal.write("\(name) restocks \(restock.quantity)")
    }
}

/// A module that relies on every default.
struct PlainModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
    }
}

@Suite("Modules", .timeLimit(.minutes(5)))
struct ModuleTests {
    @Test("modules register and start in priority order, highest first, ties in the order given")
    func order() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([
            RecordingModule(name: "low", priority: 1, journal: journal),
            RecordingModule(name: "high", priority: 10, journal: journal),
            RecordingModule(name: "tie-a", priority: 5, journal: journal),
            RecordingModule(name: "tie-b", priority: 5, journal: journal),
        ])
        #expect(
            journal.lines == [
                "register high", "register tie-a", "register tie-b", "register low",
                "start high", "start tie-a", "start tie-b", "start low",
            ])
        #expect(hive.installedModules == ["high", "tie-a", "tie-b", "low"])
    }

    @Test("shutdown stops modules in reverse order, across installs, and forgets them")
    func shutdown() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([RecordingModule(name: "a", priority: 2, journal: journal)])
        try await hive.install([RecordingModule(name: "b", priority: 3, journal: journal)])
        await hive.shutdown()
        #expect(journal.lines.suffix(2) == ["stop a", "stop b"])
        #expect(hive.installedModules.isEmpty)
    }

    @Test("a module's name and priority default to its type name and 0")
    func defaults() async throws {
        let hive = ServiceHive()
        try await hive.install([PlainModule()])
        #expect(hive.installedModules == ["PlainModule"])
        #expect(hive.registrations.map(\.module) == ["PlainModule"])
        await hive.broadcast(Restock(quantity: 1))
        await hive.shutdown()
    }

    @Test("one module installs without an array: it registers, starts, and rolls back all or nothing")
    func singleModule() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install(
            RecordingModule(name: "Trade", priority: 1, journal: journal) { hive in
                try hive.register(TradeService.self) { LiveTradeService() }
            })
        #expect(journal.lines == ["register Trade", "start Trade"])
        #expect(hive.installedModules == ["Trade"])
        #expect(hive.registrations.map(\.module) == ["Trade"])

        let thrown = await asyncError {
            try await hive.install(
                RecordingModule(name: "Broken", priority: 1, journal: journal, failStart: true) { hive in
                    try hive.register(Clock.self) { SystemClock() }
                })
        }
        guard case .moduleFailed("Broken", .start, _) = thrown else {
            Issue.record("expected moduleFailed in start, got \(String(describing: thrown))")
            return
        }
        #expect(!hive.isRegistered(Clock.self), "the failed install is rolled back")
        #expect(hive.installedModules == ["Trade"])
    }

    @Test("a failing registration rolls back every registration of the install and names the module")
    func registrationRollback() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(Session.self) { LiveSession() }
        let thrown = await asyncError {
            try await hive.install([
                RecordingModule(name: "Trade", priority: 2, journal: journal) { hive in
                    try hive.register(TradeService.self) { LiveTradeService() }
                },
                RecordingModule(name: "Broken", priority: 1, journal: journal, failRegistration: true) { hive in
                    try hive.register(Clock.self) { SystemClock() }
                },
            ])
        }
        guard case .moduleFailed(let module, .registration, let underlying) = thrown else {
            Issue.record("expected moduleFailed in registration, got \(String(describing: thrown))")
            return
        }
        #expect(module == "Broken")
        #expect(underlying is DatabaseOffline)
        #expect(
            thrown?.description
                == "Module Broken failed to register its services: database offline. Every registration of this "
                + "install was rolled back. To fix, correct the module's registrations and install again.")
        #expect(!hive.isRegistered(TradeService.self))
        #expect(!hive.isRegistered(Clock.self))
        #expect(hive.isRegistered(Session.self), "registrations made outside the install stay")
        #expect(!journal.lines.contains { $0.hasPrefix("start") }, "nothing starts")
        #expect(hive.installedModules.isEmpty)
    }

    @Test("a duplicate registration in an install names both modules and rolls the install back")
    func duplicateAcrossModules() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let thrown = await asyncError {
            try await hive.install([
                RecordingModule(name: "Trade", priority: 2, journal: journal) { hive in
                    try hive.register(TradeService.self, file: "Trade/TradeModule.swift", line: 10) {
                        LiveTradeService()
                    }
                },
                RecordingModule(name: "Legacy", priority: 1, journal: journal) { hive in
                    try hive.register(TradeService.self, file: "Legacy/Module.swift", line: 20) { LiveTradeService() }
                },
            ])
        }
        #expect(
            thrown?.description
                == "Module Legacy failed to register its services: TradeService is already registered at "
                + "Trade/TradeModule.swift:10 (module Trade); the registration at Legacy/Module.swift:20 (module "
                + "Legacy) was rejected. To fix, give one of them a name:, unregister the first, or swap it in tests "
                + "with withOverrides. Every registration of this install was rolled back.")
        #expect(!hive.isRegistered(TradeService.self))
    }

    @Test("a failing start stops the modules started before it in reverse order, and rolls back the install")
    func startFailure() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let thrown = await asyncError {
            try await hive.install([
                RecordingModule(name: "first", priority: 3, journal: journal) { hive in
                    try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
                },
                RecordingModule(name: "second", priority: 2, journal: journal),
                RecordingModule(name: "broken", priority: 1, journal: journal, failStart: true),
                RecordingModule(name: "never", priority: 0, journal: journal),
            ])
        }
        guard case .moduleFailed("broken", .start, _) = thrown else {
            Issue.record("expected moduleFailed(broken, start), got \(String(describing: thrown))")
            return
        }
        #expect(
            journal.lines.drop { $0.hasPrefix("register") }
                == ["start first", "start second", "start broken", "stop second", "stop first"])
        #expect(!hive.isRegistered(TradeService.self))
        #expect(hive.installedModules.isEmpty)
        #expect(
            thrown?.description
                == "Module broken failed to start: database offline. The modules started before it were stopped in "
                + "reverse order and every registration of this install was rolled back. To fix, resolve the cause "
                + "and install again.")
    }

    @Test("a broadcast reaches installed modules in priority order; modules ignore events they don't handle")
    func events() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        try await hive.install([
            RecordingModule(name: "low", priority: 1, journal: journal),
            RecordingModule(name: "high", priority: 9, journal: journal),
        ])
        try await hive.install([RecordingModule(name: "middle", priority: 5, journal: journal)])
        await hive.broadcast(Restock(quantity: 3))
        await hive.broadcast(Unhandled())
        #expect(
            journal.lines.filter { $0.contains("restocks") }
                == ["high restocks 3", "middle restocks 3", "low restocks 3"])
    }

    @Test("registrations made by a module are attributed to it")
    func attribution() async throws {
        let hive = ServiceHive()
        try hive.register(Session.self) { LiveSession() }
        try await hive.install([
            RecordingModule(name: "Trade", priority: 0, journal: Journal()) { hive in
                try hive.register(TradeService.self) { LiveTradeService() }
                try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
            }
        ])
        let modules = Dictionary(uniqueKeysWithValues: hive.registrations.map { ($0.key.description, $0.module) })
        #expect(modules == ["Session": nil, "TradeService": "Trade", "TradeService (name: \"premium\")": "Trade"])
    }
}
