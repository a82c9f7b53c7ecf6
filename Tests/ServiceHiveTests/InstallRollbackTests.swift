import ServiceHive
import Support
import Testing

/// An install is all or nothing: a failed one leaves the hive as it was, whatever its modules did.
@Suite("A failed install leaves the hive as it was", .timeLimit(.minutes(5)))
struct InstallRollbackTests {
    @Test("a registration a module unregistered is restored, with its instance, when a later module fails")
    func unregistrationIsRestored() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService(label: "original") }
        let original = try hive.resolve(TradeService.self)
        let journal = Journal()
        let replacing = RecordingModule(name: "Replacing", priority: 2, journal: journal) { hive in
            hive.unregister(TradeService.self)  // what Getting Started says to do to replace a service
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService(label: "replacement") }
        }
        let failing = RecordingModule(name: "Failing", priority: 1, journal: journal, failRegistration: true)
        let before = snapshot(hive)
        await #expect(throws: ServiceHiveError.self) { try await hive.install([replacing, failing]) }
        #expect(snapshot(hive) == before)
        #expect(try hive.resolve(TradeService.self) === original)
    }

    @Test("a registration the install made and then removed stays removed when a later module fails")
    func addedThenRemovedIsNotRestored() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService(label: "original") }
        let before = snapshot(hive)
        let journal = Journal()
        let churning = RecordingModule(name: "Churning", priority: 2, journal: journal) { hive in
            try hive.register(Clock.self) { SystemClock() }
            hive.unregister(Clock.self)
            hive.unregister(TradeService.self)
            try hive.register(TradeService.self) { LiveTradeService(label: "interim") }
            hive.unregister(TradeService.self)
        }
        let failing = RecordingModule(name: "Failing", priority: 1, journal: journal, failRegistration: true)
        await #expect(throws: ServiceHiveError.self) { try await hive.install([churning, failing]) }
        #expect(!hive.isRegistered(Clock.self), "made and removed by the install: not there before it")
        #expect(try hive.resolve(TradeService.self).label == "original", "there before the install: restored")
        #expect(snapshot(hive) == before)
    }

    @Test("registrations made in start are attributed to the module and rolled back when a later start fails")
    func registrationsInStart() async throws {
        let hive = ServiceHive()
        let journal = Journal()
        let warming = RecordingModule(
            name: "Warming", priority: 2, journal: journal,
            onStart: { hive in
                try hive.register(Clock.self, scope: .singleton) { SystemClock() }
                #expect(hive.registrations.first { $0.service == "Clock" }?.module == "Warming")
            })
        let failing = RecordingModule(name: "Failing", priority: 1, journal: journal, failStart: true)
        await #expect(throws: ServiceHiveError.self) { try await hive.install([warming, failing]) }
        #expect(!hive.isRegistered(Clock.self))
        #expect(
            journal.lines == ["register Warming", "register Failing", "start Warming", "start Failing", "stop Warming"])
    }

    @Test("a singleton that existed before and was warmed from a rolled-back registration is dropped")
    func warmedSingletonIsDropped() async throws {
        let hive = ServiceHive()
        try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
        let child = ServiceHive(parent: hive)
        let reports = Locked(0)
        try child.register(Report.self, scope: .singleton) { r in
            _ = try r.resolve(Cart.self)
            reports.increment()
            return LiveReport(header: SystemClock(), footer: SystemClock())
        }
        let journal = Journal()
        let trade = RecordingModule(
            name: "Trade", priority: 2, journal: journal,
            register: { hive in try hive.register(TradeService.self) { LiveTradeService(label: "rolled back") } },
            onStart: { _ in _ = try child.resolve(Report.self) })  // warms Cart, built from TradeService
        let failing = RecordingModule(name: "Failing", priority: 1, journal: journal, failStart: true)
        await #expect(throws: ServiceHiveError.self) { try await hive.install([trade, failing]) }

        #expect(throws: ServiceHiveError.self) { try hive.resolve(Cart.self) }  // TradeService is gone again
        try hive.register(TradeService.self) { LiveTradeService(label: "new") }
        #expect(try hive.resolve(Cart.self).trade.label == "new", "nothing built from the rolled-back service stayed")
        _ = try child.resolve(Report.self)
        #expect(reports.current == 2, "the child's singleton built from it was dropped too, and built again")
    }

    @Test("a module's duplicate registration rolls back what earlier modules registered and restores nothing else")
    func duplicateRollsBack() async throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        let before = snapshot(hive)
        let journal = Journal()
        let first = RecordingModule(name: "First", priority: 2, journal: journal) { hive in
            try hive.register(Session.self) { LiveSession() }
        }
        let second = RecordingModule(name: "Second", priority: 1, journal: journal) { hive in
            try hive.register(Clock.self) { SystemClock() }
        }
        let error = await asyncError { try await hive.install([first, second]) }
        guard case .moduleFailed("Second", .registration, let underlying)? = error else {
            Issue.record("expected Second to fail to register, got \(String(describing: error))")
            return
        }
        #expect(underlying is ServiceHiveError)
        #expect(snapshot(hive) == before)
    }
}
