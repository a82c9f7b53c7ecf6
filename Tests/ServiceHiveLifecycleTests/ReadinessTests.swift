#if ServiceLifecycle
import Logging
import ServiceHive
import ServiceHiveLifecycle
import ServiceHiveTesting
import ServiceLifecycle
import Support
import Testing

@Suite("ModulesService readiness", .timeLimit(.minutes(5)))
struct ReadinessTests {
    let hive = ServiceHive()
    let journal = Journal()

    @Test("ready() returns once the modules are installed, for a task that waited from before the group ran")
    func readyAfterInstall() async throws {
        let service = ModulesService([RecordingModule(name: "trade", priority: 1, journal: journal)], in: hive)
        let early = Task { try await service.ready() }
        let group = ServiceGroup(services: [service], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await within("the early wait to end") { try await value(of: early) }
        // Ready means installed: no polling.
        #expect(hive.installedModules == ["trade"])
        #expect(try await within("two lines") { await journal.next(2) } == ["register trade", "start trade"])
        try await within("a later wait to end") { try await service.ready() }

        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: run) }
        try await within("a wait after the shutdown to end") { try await service.ready() }
        #expect(await journal.rest() == ["stop trade"])
    }

    @Test("ready() throws the install's moduleFailed to every waiter, and a server that waits for it never serves")
    func readyThrowsInstallFailure() async throws {
        let modules: [any ServiceModule] = [
            RecordingModule(name: "broken", priority: 1, journal: journal, onStart: .fails)
        ]
        let service = ModulesService(modules, in: hive)
        let early = Task { try await service.ready() }
        let server = WaitingServer(modules: service, journal: journal)
        let group = ServiceGroup(services: [service, server], logger: .quiet)

        let thrown = await #expect(throws: ServiceHiveError.self) {
            try await within("the group's run to throw") { try await group.run() }
        }
        guard case .moduleFailed("broken", .start, _) = try #require(thrown) else {
            Issue.record("expected moduleFailed for broken's start, got \(String(describing: thrown))")
            return
        }
        for waiter in [early, Task { try await service.ready() }] {
            let failure = await #expect(throws: ServiceHiveError.self) {
                try await within("the wait to throw") { try await value(of: waiter) }
            }
            #expect(failure?.code == 9)
        }
        #expect(await journal.rest() == ["register broken", "start broken", "server gave up: moduleFailed"])
        #expect(hive.installedModules.isEmpty)
    }

    @Test("with validation, a registration that does not resolve stops the modules, and run() and ready() throw it")
    func validationFails() async throws {
        let modules: [any ServiceModule] = [
            RecordingModule(name: "trade", priority: 2, journal: journal),
            NeedyModule(journal: journal),
        ]
        let service = ModulesService(modules, in: hive, validation: .all)
        let server = WaitingServer(modules: service, journal: journal)
        let group = ServiceGroup(services: [service, server], logger: .quiet)

        let thrown = await #expect(throws: ModulesServiceError.self) {
            try await within("the group's run to throw") { try await group.run() }
        }
        guard case .validationFailed(let report) = try #require(thrown) else {
            Issue.record("expected validationFailed, got \(String(describing: thrown))")
            return
        }
        #expect(report.failures.map(\.registration.service) == ["Needy"])
        let described = try #require(thrown).description
        #expect(
            described.hasPrefix(
                "The modules installed, but 1 registration failed to resolve when the hive was validated, so the "
                    + "modules were stopped. To fix, register what each failure below is missing, or give samples of "
                    + "what is provided later with ModulesService.Validation.all(samples:).\nValidated "))
        #expect(described.contains("FAILED Needy"))
        await #expect(throws: ModulesServiceError.self) { try await service.ready() }
        #expect(
            await journal.rest() == [
                "register trade", "register needy", "start trade", "start needy", "stop needy", "stop trade",
                "server gave up: validationFailed",
            ])
        #expect(hive.installedModules.isEmpty)
    }

    @Test("with validation and samples of what requests provide, the service is ready")
    func validationWithSamples() async throws {
        let service = ModulesService(
            [NeedyModule(journal: journal)], in: hive,
            validation: .all { plan in plan.provide(Caller.self, Caller(name: "sample")) })
        let group = ServiceGroup(services: [service], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }

        try await within("the service to be ready") { try await service.ready() }
        // Validation leaves no trace: the sample was not kept.
        let request = hive.child { $0.provide(Caller.self, Caller(name: "ada")) }
        #expect(try request.resolve(Needy.self).caller.name == "ada")

        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: run) }
        #expect(await journal.rest() == ["register needy", "start needy", "stop needy"])
    }

    @Test("a waiter that is cancelled leaves with CancellationError, and the service is not affected")
    func cancelledWaiter() async throws {
        let service = ModulesService([RecordingModule(name: "trade", priority: 1, journal: journal)], in: hive)
        for _ in 0..<50 {
            let waiter = Task { try await service.ready() }
            waiter.cancel()
            await #expect(throws: CancellationError.self) {
                try await within("the cancelled wait to throw") { try await value(of: waiter) }
            }
        }
        let run = Task { try await service.run() }
        defer { run.cancel() }
        try await within("the service to be ready") { try await service.ready() }
        #expect(hive.installedModules == ["trade"])
    }

    @Test("a service whose task was cancelled before it ran throws CancellationError from ready()")
    func cancelledBeforeRun() async throws {
        let service = ModulesService([RecordingModule(name: "trade", priority: 1, journal: journal)], in: hive)
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await service.run()
        }
        await #expect(throws: CancellationError.self) { try await value(of: run) }
        await #expect(throws: CancellationError.self) {
            try await within("the wait to throw") { try await service.ready() }
        }
        #expect(hive.registrations.isEmpty)
    }
}

// MARK: - The real group, in a hive of the test's own, under overrides

@Suite("ModulesService with the test traits", .timeLimit(.minutes(5)))
struct TestHiveCompositionTests {
    @Test(
        "the real service group installs into the test's hive, and its modules and services see the overrides",
        .testHive { $0.register(Greeting.self) { Greeting(text: "hello from the override") } },
        arguments: 0..<3)
    func realGroupUnderOverrides(run: Int) async throws {
        let hive = try TestHiveTrait.current
        let journal = Journal()
        // The app's wiring, as production builds it: a new hive per run.
        let (service, group) = greetingApp(hive: hive, journal: journal)
        let running = Task { try await group.run() }
        defer { running.cancel() }

        try await within("the service to be ready") { try await service.ready() }
        // The module's start resolved the override, and so does the sibling service, in its own child task.
        let lines = try await within("two lines") { await journal.next(2) }
        #expect(lines == ["greeter started: hello from the override", "sibling: hello from the override"])
        #expect(try hive.resolve(Greeting.self).text == "hello from the override")

        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: running) }
        #expect(hive.installedModules.isEmpty)
    }

    @Test("without overrides, the same wiring uses the module's own registration")
    func realGroupWithoutOverrides() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        let (service, group) = greetingApp(hive: hive, journal: journal)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        try await within("the service to be ready") { try await service.ready() }
        #expect(
            try await within("two lines") { await journal.next(2) } == ["greeter started: hello", "sibling: hello"])
        await group.triggerGracefulShutdown()
        try await within("the group's run to return") { try await value(of: running) }
    }

    /// The wiring under test: a module that registers a greeting, and a service beside it that reads it once the
    /// module is ready.
    func greetingApp(hive: ServiceHive, journal: Journal) -> (ModulesService, ServiceGroup) {
        let service = ModulesService([GreeterModule(journal: journal)], in: hive)
        let sibling = ClosureService(journal: journal) {
            try await service.ready()
            journal.write("sibling: \(try hive.resolve(Greeting.self).text)")
        }
        return (service, ServiceGroup(services: [service, sibling], logger: .quiet))
    }
}

// MARK: - Fixtures

/// A service that stands in for an HTTP server: it waits for the modules to be ready before it serves.
private struct WaitingServer: Service {
    let modules: ModulesService
    let journal: Journal

    func run() async throws {
        do {
            try await modules.ready()
        } catch {
            let kind = error is ModulesServiceError ? "validationFailed" : "moduleFailed"
            journal.write("server gave up: \(kind)")
            throw error
        }
        journal.write("server serves")
        try? await gracefulShutdown()
    }
}

/// A service that runs `body`, then waits for graceful shutdown.
private struct ClosureService: Service {
    let journal: Journal
    let body: @Sendable () async throws -> Void

    func run() async throws {
        try await body()
        try? await gracefulShutdown()
    }
}

/// Who makes a request: a child hive provides it.
private struct Caller: Sendable {
    let name: String
}

/// A service that needs the request's caller.
private struct Needy: Sendable {
    let caller: Caller
}

/// Registers ``Needy``, which resolves only where a ``Caller`` is provided.
private struct NeedyModule: ServiceModule {
    let journal: Journal
    var name: String { "needy" }

    func register(in hive: ServiceHive) throws {
        journal.write("register needy")
        try hive.register(Needy.self) { r in Needy(caller: try r.resolve()) }
    }

    func start(in hive: ServiceHive) async throws { journal.write("start needy") }
    func stop(in hive: ServiceHive) async { journal.write("stop needy") }
}

private struct Greeting: Sendable {
    let text: String
}

/// Registers a ``Greeting`` and reads it as it starts.
private struct GreeterModule: ServiceModule {
    let journal: Journal

    func register(in hive: ServiceHive) throws {
        try hive.register(Greeting.self) { Greeting(text: "hello") }
    }

    func start(in hive: ServiceHive) async throws {
        journal.write("greeter started: \(try hive.resolve(Greeting.self).text)")
    }
}
#endif
