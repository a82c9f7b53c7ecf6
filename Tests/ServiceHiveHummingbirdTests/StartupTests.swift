#if Hummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceHive
import ServiceHiveHummingbird
import ServiceHiveLifecycle
import ServiceLifecycle
import Support
import Testing

/// A module whose start throws.
struct RefusingModule: ServiceModule {
    var name: String { "Refusing" }
    func register(in hive: ServiceHive) throws {}
    func start(in hive: ServiceHive) async throws { throw Refusal() }
}

struct Refusal: Error, CustomStringConvertible {
    var description: String { "the module refuses to start" }
}

/// A service that fails once the modules are ready.
struct FailingOnceReady: Service {
    let modules: ModulesService
    func run() async throws {
        try await modules.ready()
        throw Refusal()
    }
}

/// An application of the shop's routes, with `modules` installing into `hive` before the server listens.
func startingApplication(
    _ modules: [any ServiceModule], hive: ServiceHive, services: [any Service] = [], logger: Logger
) -> (ModulesService, some ApplicationProtocol) {
    let service = ModulesService(modules, in: hive)
    var app = Application(
        router: shopRouter(hive),
        configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "ShopServer"),
        services: [service] + services,
        logger: logger)
    app.beforeServerStarts { try await service.ready() }
    return (service, app)
}

/// A wait that ignores cancellation, as HummingbirdTesting's wait for the port does, until it is opened: unlike
/// Support's `Gate`, whose waits end at their limit.
final class DeafGate: Sendable {
    private let waiters = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = waiters.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiting = waiters.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }
}

@Suite("Starting an application: unlessStartupFails and runServiceOrExit", .timeLimit(.minutes(5)))
struct StartupTests {
    @Test("a live test of an application whose module fails to start ends with the module's failure, not a hang")
    func liveFailure() async throws {
        let hive = try shopHive()
        let (_, app) = startingApplication([RefusingModule()], hive: hive, logger: LogRecorder().logger)
        let ran = Locked(false)
        let thrown = await #expect(throws: ServiceHiveError.self) {
            try await within("the live test to end", limit: .seconds(30)) {
                try await app.unlessStartupFails {
                    try await app.test(.live) { _ in ran.withLock { $0 = true } }
                }
            }
        }
        guard case .moduleFailed("Refusing", .start, let underlying) = thrown else {
            Issue.record("expected Refusing's start to fail, got \(String(describing: thrown))")
            return
        }
        #expect("\(underlying)" == "the module refuses to start")
        #expect(!ran.current, "the test ran against a server whose modules failed")
    }

    @Test("when the modules start, it returns what the test returns, and the test ran against the live server")
    func liveSuccess() async throws {
        let (_, app) = startingApplication([], hive: try shopHive(), logger: LogRecorder().logger)
        let answer = try await app.unlessStartupFails {
            try await app.test(.live) { client in
                text(of: try await client.execute(uri: "/api/shop/echo?text=up", method: .get))
            }
        }
        #expect(answer == #"{"n":0,"text":"up"}"#)
    }

    @Test("what the operation throws, once the modules started, passes through unchanged")
    func operationError() async throws {
        let (_, app) = startingApplication([], hive: try shopHive(), logger: LogRecorder().logger)
        await #expect(throws: Refusal.self) {
            try await app.unlessStartupFails {
                try await app.test(.router) { _ in throw Refusal() }
            }
        }
    }

    @Test("cancelling the caller ends the wait, also when the operation ignores cancellation")
    func cancelled() async throws {
        let (_, app) = startingApplication([], hive: try shopHive(), logger: LogRecorder().logger)
        let gate = DeafGate()
        defer { gate.open() }  // lets the operation end, so that no task outlives the test
        let started = Locked(false)
        let waiting = Task {
            try await app.unlessStartupFails {
                started.withLock { $0 = true }
                await gate.wait()  // ignores cancellation; the modules' service never runs, so never fails
                return 1
            }
        }
        try await within("the operation to start") {
            while !started.current { try await Task.sleep(for: .milliseconds(5)) }
        }
        waiting.cancel()
        let result = try await within("the cancelled wait to end") { await waiting.result }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("an application without a ModulesService is refused before the operation runs, saying how to fix it")
    func noModulesService() async throws {
        let app = Application(router: shopRouter(try shopHive()), logger: LogRecorder().logger)
        let ran = Locked(false)
        let thrown = await #expect(throws: HiveApplicationError.self) {
            try await app.unlessStartupFails { ran.withLock { $0 = true } }
        }
        let error = try #require(thrown)
        guard case .noModulesService(let application) = error else {
            Issue.record("expected noModulesService, got \(error)")
            return
        }
        #expect(application.hasPrefix("Application<"))
        #expect(
            error.description
                == "The application \(application) has no ModulesService among its services, so unlessStartupFails "
                + "has no startup to watch. To fix, give the application its ModulesService: "
                + "Application(router: router, services: [modules]); or run the operation without unlessStartupFails.")
        #expect(!ran.current)
    }

    @Test("runServiceOrExit logs why a refused startup failed, and exits with status 1, not a crash")
    func exitOnRefusedStartup() async throws {
        let result = try await within("the exit test") {
            await #expect(processExitsWith: .exitCode(1), observing: [\.standardErrorContent]) {
                let logger = Logger(label: "shop") { StreamLogHandler.standardError(label: $0) }
                let (_, app) = startingApplication([RefusingModule()], hive: ServiceHive(), logger: logger)
                await app.runServiceOrExit()
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "ShopServer did not start, and exits with status 1: Module Refusing failed to start: the module "
                    + "refuses to start."),
            "\(output)")
        #expect(!output.contains("Fatal error"))
    }

    @Test("runServiceOrExit logs a failure after a good start as a stop on an error, and exits with status 1")
    func exitOnLaterFailure() async throws {
        let result = try await within("the exit test") {
            await #expect(processExitsWith: .exitCode(1), observing: [\.standardErrorContent]) {
                let logger = Logger(label: "shop") { StreamLogHandler.standardError(label: $0) }
                let hive = ServiceHive()
                let modules = ModulesService([], in: hive)
                var app = Application(
                    router: shopRouter(hive),
                    configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "ShopServer"),
                    services: [modules, FailingOnceReady(modules: modules)],
                    logger: logger)
                app.beforeServerStarts { try await modules.ready() }
                await app.runServiceOrExit()
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains("ShopServer stopped on an error, and exits with status 1: the module refuses to start"),
            "\(output)")
    }
}
#endif
