#if ServiceLifecycle
import Logging
import ServiceHive
import ServiceHiveLifecycle
import ServiceLifecycle
import Support
import Testing

@Suite("ModulesService in a ServiceGroup", .timeLimit(.minutes(5)))
struct ModulesServiceTests {
    let hive = ServiceHive()
    let journal = Journal()

    /// Three modules, given out of priority order: they install as high, middle, low.
    var modules: [any ServiceModule] {
        [
            RecordingModule(name: "low", priority: 1, journal: journal),
            RecordingModule(name: "high", priority: 3, journal: journal),
            RecordingModule(name: "middle", priority: 2, journal: journal),
        ]
    }

    let installLines = [
        "register high", "register middle", "register low", "start high", "start middle", "start low",
    ]
    let stopLines = ["stop low", "stop middle", "stop high"]

    /// Waits until `service` is ready, and checks that the three ``modules`` registered and started, in priority
    /// order, and are installed.
    func waitForTheInstall(
        of service: ModulesService,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await within("the service to be ready") { try await service.ready() }
        let installing = try await within("the modules to start") { [journal] in await journal.next(6) }
        #expect(installing == installLines, sourceLocation: sourceLocation)
        #expect(hive.installedModules == ["high", "middle", "low"], sourceLocation: sourceLocation)
    }

    @Test("the modules install when the group runs, and stop in reverse order on graceful shutdown")
    func stopsOnGracefulShutdown() async throws {
        let service = ModulesService(modules, in: hive)
        let group = ServiceGroup(services: [service, Sentinel(journal: journal)], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await waitForTheInstall(of: service)
        #expect(hive.registrations.map(\.module) == ["high", "middle", "low"])

        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: run) }
        // The group shuts its services down in reverse order: the sentinel, listed last, first.
        #expect(await journal.rest() == ["sentinel shut down gracefully"] + stopLines)
        #expect(hive.installedModules.isEmpty)
        // Like `hive.shutdown()`, the service keeps the modules' registrations.
        #expect(hive.registrations.map(\.module) == ["high", "middle", "low"])
    }

    @Test("graceful shutdown requested before the group runs still installs the modules, then stops them at once")
    func shutdownBeforeRun() async throws {
        let group = ServiceGroup(services: [ModulesService(modules, in: hive)], logger: .quiet)
        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await group.run() }
        #expect(await journal.rest() == installLines + stopLines)
        #expect(hive.installedModules.isEmpty)
    }

    @Test("a module that fails to start makes the group's run throw moduleFailed, with the hive left as it was")
    func startFailure() async throws {
        try hive.register(Marker.self, name: "before the install") { Marker() }
        let modules: [any ServiceModule] = [
            RecordingModule(name: "good", priority: 2, journal: journal),
            RecordingModule(name: "broken", priority: 1, journal: journal, onStart: .fails),
        ]
        let group = ServiceGroup(
            services: [ModulesService(modules, in: hive), Sentinel(journal: journal)], logger: .quiet)

        let thrown = await #expect(throws: ServiceHiveError.self) {
            try await within("the group's run to throw") { try await group.run() }
        }
        guard case .moduleFailed(let module, let stage, let underlying) = try #require(thrown) else {
            Issue.record("expected moduleFailed, got \(String(describing: thrown))")
            return
        }
        #expect(module == "broken")
        #expect(stage == .start)
        #expect(underlying is StartFailure)
        // The install stopped the module it had started, then the group cancelled its other service.
        #expect(
            await journal.rest() == [
                "register good", "register broken", "start good", "start broken", "stop good", "sentinel cancelled",
            ])
        #expect(hive.installedModules.isEmpty)
        #expect(hive.registrations.map(\.name) == ["before the install"])
    }

    @Test(
        "cancelling the group's task stops the modules in reverse order, and the group's run throws CancellationError")
    func cancellation() async throws {
        let service = ModulesService(modules, in: hive)
        let group = ServiceGroup(services: [service], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await waitForTheInstall(of: service)

        run.cancel()
        await #expect(throws: CancellationError.self) {
            try await within("the group's run to throw") { try await value(of: run) }
        }
        #expect(await journal.rest() == stopLines)
        #expect(hive.installedModules.isEmpty)
    }

    @Test("when another service fails, the group cancels this one, which stops the modules")
    func anotherServiceFails() async throws {
        let (failNow, failure) = AsyncStream.makeStream(of: Void.self)
        let service = ModulesService(modules, in: hive)
        let group = ServiceGroup(
            services: [service, FailingService(journal: journal, failNow: failNow)], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await waitForTheInstall(of: service)

        failure.yield()
        await #expect(throws: ServiceFailure.self) {
            try await within("the group's run to throw") { try await value(of: run) }
        }
        #expect(await journal.rest() == ["failing service fails"] + stopLines)
        #expect(hive.installedModules.isEmpty)
    }

    @Test("cancelling while a module starts rolls the install back, and the run throws that module's moduleFailed")
    func cancellationWhileStarting() async throws {
        let modules: [any ServiceModule] = [
            RecordingModule(name: "first", priority: 2, journal: journal),
            RecordingModule(name: "slow", priority: 1, journal: journal, onStart: .waitsUntilCancelled),
        ]
        let group = ServiceGroup(services: [ModulesService(modules, in: hive)], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        let starting = try await within("the slow module to start") { [journal] in await journal.next(4) }
        #expect(starting == ["register first", "register slow", "start first", "start slow"])

        run.cancel()
        let thrown = await #expect(throws: ServiceHiveError.self) {
            try await within("the group's run to throw") { try await value(of: run) }
        }
        guard case .moduleFailed("slow", .start, let underlying) = try #require(thrown) else {
            Issue.record("expected moduleFailed for slow's start, got \(String(describing: thrown))")
            return
        }
        #expect(underlying is CancellationError)
        #expect(await journal.rest() == ["stop first"])
        #expect(hive.installedModules.isEmpty)
        #expect(hive.registrations.isEmpty)
    }

    @Test("a task cancelled before the service runs leaves the hive untouched")
    func cancelledBeforeRun() async throws {
        let service = ModulesService(modules, in: hive)
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await service.run()
        }
        await #expect(throws: CancellationError.self) {
            try await within("the run to throw") { try await value(of: run) }
        }
        #expect(await journal.rest() == [])
        #expect(hive.registrations.isEmpty)
    }

    @Test("outside a ServiceGroup the service runs until its task is cancelled, then stops the modules")
    func outsideGroup() async throws {
        let service = ModulesService(modules, in: hive)
        let run = Task { try await service.run() }
        defer { run.cancel() }

        try await waitForTheInstall(of: service)

        run.cancel()
        await #expect(throws: CancellationError.self) {
            try await within("the run to throw") { try await value(of: run) }
        }
        #expect(await journal.rest() == stopLines)
        #expect(hive.installedModules.isEmpty)
    }

    @Test("a service runs once: running it again, during or after its run, throws alreadyRun and leaves the hive alone")
    func runsOnce() async throws {
        let service = ModulesService(modules, in: hive)
        let group = ServiceGroup(services: [service], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await waitForTheInstall(of: service)

        await #expect {
            try await within("the second run to throw") { try await service.run() }
        } throws: { isAlreadyRun($0) }
        #expect(hive.installedModules == ["high", "middle", "low"])

        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: run) }
        await #expect {
            try await within("the run after the first to throw") { try await service.run() }
        } throws: { isAlreadyRun($0) }
        #expect(await journal.rest() == stopLines)
        #expect(hive.registrations.map(\.module) == ["high", "middle", "low"])
        #expect(
            ModulesServiceError.alreadyRun.description
                == "This ModulesService has run already, and a ModulesService runs once; its hive was left alone. "
                + "To fix, make a new ModulesService, with a new hive: the modules' registrations stay in this one.")
    }

    /// Whether `error` is ``ModulesServiceError/alreadyRun``.
    func isAlreadyRun(_ error: any Error) -> Bool {
        if case ModulesServiceError.alreadyRun = error { return true }
        return false
    }

    @Test("the service's description, which the group logs, names its modules in the order given")
    func describesModules() {
        #expect(String(describing: ModulesService(modules, in: hive)) == "ModulesService(low, high, middle)")
        #expect(String(describing: ModulesService([], in: hive)) == "ModulesService()")
    }
}
#endif
