#if Vapor
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceHive
import ServiceHiveVapor
import Support
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: modules in the application's lifecycle", .timeLimit(.minutes(5)))
struct LifecycleTests {
    /// A testing application whose hive installs `modules`, with `/marker/:module`, which resolves the module's marker
    /// from the request's hive.
    func application(_ modules: [JournalModule], validation: HiveValidation = .none) async throws -> Application {
        let app = try await Application.make(.testing)
        app.logger = LogRecorder().logger
        try app.useHive(ServiceHive(), modules: modules, validation: validation)
        app.get("marker", ":module") { request in
            try request.hive.resolve(Marker.self, name: request.parameters.get("module")).module
        }
        return app
    }

    @Test("an asynchronous boot installs the modules before any request, and shutdown stops them in reverse")
    func installsAndStops() async throws {
        let journal = Journal()
        let app = try await application([
            JournalModule(name: "a", journal: journal), JournalModule(name: "b", journal: journal),
        ])
        #expect(hiveError(of: app).contains("has not booted"))
        try await app.asyncBoot()
        #expect(journal.all == ["register a", "register b", "start a", "start b"])
        let answer = try await app.testing().sendRequest(.GET, "/marker/b")
        #expect(answer.status == .ok)
        #expect(answer.body.string == "b")
        try await app.asyncShutdown()
        #expect(journal.all.suffix(2) == ["stop b", "stop a"])
        // Vapor empties the application's storage at shutdown: a later request finds no hive, never a stopped one.
        #expect(hiveError(of: app).contains("no hive"))
    }

    /// What reading the hive of a new request of `app` throws, or "" when it throws nothing.
    func hiveError(of app: Application) -> String {
        let request = Request(application: app, on: app.eventLoopGroup.next())
        let error = #expect(throws: HiveVaporError.self) { try request.hive }
        return error.map { "\($0)" } ?? ""
    }

    @Test("a module that fails to start refuses the boot at once, naming it, and requests never reach the hive")
    func refusedStart() async throws {
        let journal = Journal()
        let app = try await application([
            JournalModule(name: "a", journal: journal), JournalModule(name: "b", journal: journal, fails: true),
        ])
        let started = ContinuousClock.now
        let error = await #expect(throws: ServiceHiveError.self) { try await app.asyncBoot() }
        #expect(ContinuousClock.now - started < .seconds(60))  // Fails at once, where a hang would meet the time limit.
        #expect("\(error.map { "\($0)" } ?? "")".contains("the database is offline"))
        #expect(journal.all.contains("stop a"))  // the install undid itself
        // Vapor marks the application booted even when its boot threw: a request still finds no hive.
        let answer = try await app.testing().sendRequest(.GET, "/marker/a")
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.body.string.contains("The server is not ready."))
        #expect(!answer.body.string.contains("database"))
        try await app.asyncShutdown()
    }

    @Test("executeOrExit logs a refused startup and exits with status 1, where a top-level throw would trap")
    func executeOrExitRefused() async {
        await #expect(processExitsWith: .exitCode(1)) {
            let app = try await Application.make(.testing)
            try app.useHive(
                ServiceHive(), modules: [JournalModule(name: "a", journal: Journal(), fails: true)])
            await app.executeOrExit()
        }
    }

    @Test("a validation that fails refuses the boot with the report, after stopping the modules")
    func refusedValidation() async throws {
        let journal = Journal()
        let app = try await application([JournalModule(name: "a", journal: journal, broken: true)], validation: .all)
        let error = await #expect(throws: HiveVaporError.self) { try await app.asyncBoot() }
        guard case .validationFailed(let report) = error else {
            Issue.record("expected validationFailed, got \(String(describing: error))")
            try await app.asyncShutdown()
            return
        }
        #expect(report.failures.count == 1)
        #expect(journal.all == ["register a", "start a", "stop a"])
        try await app.asyncShutdown()
    }

    @Test("a check that finds a captive dependency refuses the boot with the report, after stopping the modules")
    func refusedCheck() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        // A singleton that holds a .weak service: the check finds it without building either.
        try hive.register(Journal.self, scope: .weak) { Journal() }
        try hive.register(Holder.self, scope: .singleton, initializer: Holder.init(journal:))
        let app = try await Application.make(.testing)
        app.logger = LogRecorder().logger
        try app.useHive(hive, modules: [JournalModule(name: "a", journal: journal)])
        let error = await #expect(throws: HiveVaporError.self) { try await app.asyncBoot() }
        let report: ServiceHive.CheckReport?
        if case .checkFailed(let found) = error { report = found } else { report = nil }
        #expect(report != nil, "expected checkFailed, got \(String(describing: error))")
        let captives = report?.problems.filter { if case .captiveDependency = $0 { true } else { false } }
        #expect(captives?.count == 1)
        #expect(journal.all == ["register a", "start a", "stop a"])
        #expect("\(error.map { "\($0)" } ?? "")".contains("Holder"))
        try await app.asyncShutdown()
    }

    @Test("app.testing() without an asynchronous boot throws instead of serving without the modules")
    func synchronousBoot() async throws {
        let journal = Journal()
        let app = try await application([JournalModule(name: "a", journal: journal)])
        let error = #expect(throws: HiveVaporError.self) { _ = try app.testing() }
        #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("The application booted synchronously"))
        #expect(journal.all.isEmpty)
        try await app.asyncShutdown()
    }

    @Test("shutdown lets a request in flight finish with its modules running, then stops them")
    func drainsFirst() async throws {
        let journal = Journal()
        let gate = Gate()
        let app = try await application([JournalModule(name: "a", journal: journal)])
        app.get("slow") { request in
            await gate.enterAndWait()
            let marker = try request.hive.resolve(Marker.self, name: "a")
            journal.write("served \(marker.module)")
            return "done"
        }
        try await app.asyncBoot()
        // The server as `serve` starts it, without VaporTesting's live client, which stops the server itself.
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/slow"))
        let request = Task { try await URLSession.shared.data(from: url) }
        await gate.waitUntilEntered()
        let shutdown = Task { try await app.asyncShutdown() }
        // Give the shutdown time to start waiting for the request; the modules must not stop meanwhile.
        try await Task.sleep(for: .milliseconds(200))
        #expect(!journal.all.contains("stop a"))
        gate.open()
        let (body, response) = try await request.value
        try await shutdown.value
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "done")
        #expect(journal.all.suffix(2) == ["served a", "stop a"])
    }
}

/// A point a handler waits at until the test opens it.
final class Gate: Sendable {
    private struct State {
        var entered = false
        var opened = false
        var enteredWaiters: [CheckedContinuation<Void, Never>] = []
        var openWaiters: [CheckedContinuation<Void, Never>] = []
    }
    /// Guards `entered`, `opened`, and the tasks waiting for each.
    private let state = Locked(State())

    func enterAndWait() async {
        let entered = state.withLock { state in
            state.entered = true
            defer { state.enteredWaiters.removeAll() }
            return state.enteredWaiters
        }
        for waiter in entered { waiter.resume() }
        await withCheckedContinuation { continuation in
            let opened = state.withLock { state in
                if !state.opened { state.openWaiters.append(continuation) }
                return state.opened
            }
            if opened { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        await withCheckedContinuation { continuation in
            let entered = state.withLock { state in
                if !state.entered { state.enteredWaiters.append(continuation) }
                return state.entered
            }
            if entered { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.opened = true
            defer { state.openWaiters.removeAll() }
            return state.openWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
/// A singleton that holds a journal, for a check to find captive when the journal is `.weak`.
final class Holder: Sendable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
}
#endif
