#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceHive
import ServiceHiveHummingbird
import ServiceHiveLifecycle
import ServiceHiveTesting
import Support
import Testing
import TradeModule

@testable import TradeServer

@Suite("TradeServer", .timeLimit(.minutes(5)))
struct TradeServerTests {
    static let quiet = Logger(label: "TradeServerTests") { _ in SwiftLogNoOpLogHandler() }

    @Test("trade/order answers over HTTP, and trade/quote, not reachable by URL, is not found")
    func order() async throws {
        let hive = ServiceHive()
        let app = TradeServer.application(hive: hive, port: 0, logger: Self.quiet)
        try await app.test(.router) { client in
            // The modules are ready before the first request: beforeServerStarts awaited them.
            #expect(hive.installedModules == ["Trade"])
            let order = try await client.execute(uri: "/api/trade/order?item=hive-42&quantity=2", method: .get)
            #expect(order.status == .ok)
            #expect(body(order) == #"{"item":"hive-42","number":1,"quantity":2,"total":2500}"#)
            let quote = try await client.execute(uri: "/api/trade/quote?item=hive-42&quantity=2", method: .get)
            #expect(quote.status == .notFound)
            // TradeError is marked public: the caller reads why.
            let short = try await client.execute(uri: "/api/trade/order?item=smoker&quantity=9", method: .post)
            #expect(short.status == .conflict)
            #expect(body(short) == #"{"error":{"message":"only 1 of smoker in stock, 9 requested"}}"#)
        }
        // The test's graceful shutdown stopped the modules.
        #expect(hive.installedModules.isEmpty)
    }

    @Test("each request has its own customer session, also when many run at once")
    func sessionPerRequest() async throws {
        let app = TradeServer.application(hive: ServiceHive(), port: 0, logger: Self.quiet)
        try await app.test(.router) { client in
            let texts = try await within("100 requests") {
                try await withThrowingTaskGroup(of: (Int, String).self) { requests in
                    for index in 0..<100 {
                        requests.addTask {
                            let item = ["hive-42", "honey-jar", "smoker"][index % 3]
                            let response = try await client.execute(
                                uri: "/items/\(item)", method: .get,
                                headers: [TradeServer.customerHeader: "c\(index)"])
                            return (index, body(response))
                        }
                    }
                    return try await requests.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
                }
            }
            #expect(texts.count == 100)
            for (index, text) in texts {
                let item = ["hive-42", "honey-jar", "smoker"][index % 3]
                let price = ["$12.50", "$8.99", "$45.00"][index % 3]
                #expect(text == "\(price) for c\(index), who viewed [\"\(item)\"]")
            }
            let guest = try await client.execute(uri: "/me", method: .get)
            #expect(body(guest) == "guest")
            let missing = try await client.execute(uri: "/items/nothing", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    // snippet: hummingbird-test
    @Test(.testHive { $0.register(PricingService.self) { FlatPricing(cents: 100) } })
    func ordersAtFlatPrices() async throws {
        let logger = Self.quiet
        let app = TradeServer.application(hive: try TestHiveTrait.current, port: 0, logger: logger)
        try await app.test(.router) { client in
            let order = try await client.execute(uri: "/api/trade/order?item=hive-42&quantity=3", method: .get)
            #expect(order.status == .ok)  // and the total is 300: 3 × the flat 100
            #expect(body(order) == #"{"item":"hive-42","number":1,"quantity":3,"total":300}"#)
        }
    }
    // end-snippet

    @Test(
        "a module that fails to start keeps the server from serving, and the test gets the failure",
        .testHive { $0.register(PricingService.self) { FlatPricing(cents: 100, missing: "smoker") } })
    func notReady() async throws {
        let app = TradeServer.application(hive: try TestHiveTrait.current, port: 0, logger: Self.quiet)
        let thrown = await #expect(throws: ServiceHiveError.self) {
            try await app.test(.router) { _ in Issue.record("the server served before its modules were ready") }
        }
        guard case .moduleFailed("Trade", .start, let underlying) = thrown else {
            Issue.record("expected Trade's start to fail, got \(String(describing: thrown))")
            return
        }
        #expect("\(underlying)".contains("smoker"))
    }

    @Test("GET /health answers ok when every module's health check passes")
    func healthy() async throws {
        let app = TradeServer.application(hive: ServiceHive(), port: 0, logger: Self.quiet)
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(body(health) == "ok")
        }
    }

    @Test(
        "GET /health answers 503 naming each failing check: a module's own, and one a test contributes",
        .testHive {
            $0.register(PricingService.self, name: "premium") { FlatPricing(cents: 100, missing: "smoker") }
            $0.contribute(HealthCheck.self, name: "payments") { FailingCheck(reason: "the gateway is down") }
        })
    func unhealthy() async throws {
        let app = TradeServer.application(hive: try TestHiveTrait.current, port: 0, logger: Self.quiet)
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .serviceUnavailable)
            #expect(body(health) == "unhealthy: trade: no flat price for smoker; payments: the gateway is down")
        }
    }

    // snippet: hummingbird-live-test
    @Test("a live server on 127.0.0.1 answers, then shuts down gracefully")
    func answersOverTCP() async throws {
        let hive = ServiceHive()
        let logger = Self.quiet
        let app = TradeServer.application(hive: hive, port: 0, logger: logger)
        try await app.unlessStartupFails {
            try await app.test(.live) { client in
                let health = try await client.execute(uri: "/health", method: .get)
                #expect(health.status == .ok)
                #expect(body(health) == "ok")
                let order = try await client.execute(
                    uri: "/api/trade/order", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"item":"honey-jar","quantity":1}"#))
                #expect(body(order) == #"{"item":"honey-jar","number":1,"quantity":1,"total":899}"#)
            }
        }
        #expect(hive.installedModules.isEmpty)
    }
    // end-snippet

    @Test(
        "a live test inside unlessStartupFails sees the test's overrides, in the server's routes and commands",
        .testHive { $0.register(PricingService.self) { FlatPricing(cents: 100) } })
    func liveOverrides() async throws {
        let app = TradeServer.application(hive: try TestHiveTrait.current, port: 0, logger: Self.quiet)
        let total = try await app.unlessStartupFails {
            try await app.test(.live) { client in
                body(try await client.execute(uri: "/api/trade/order?item=hive-42&quantity=3", method: .get))
            }
        }
        #expect(total == #"{"item":"hive-42","number":1,"quantity":3,"total":300}"#)
    }

    @Test(
        "a live test of a server whose modules fail to install, validate or start ends with the failure, not a hang",
        arguments: StartupFault.allCases)
    func liveNotReady(fault: StartupFault) async throws {
        let hive = ServiceHive()
        let app = TradeServer.application(hive: hive, port: 0, logger: Self.quiet, fault: fault)
        let thrown = await #expect(throws: (any Error).self) {
            try await within("the live test to end", limit: .seconds(30)) {
                try await app.unlessStartupFails {
                    try await app.test(.live) { _ in Issue.record("the server served before its modules were ready") }
                }
            }
        }
        let error = try #require(thrown)
        switch (fault, error as? ServiceHiveError, error as? ModulesServiceError) {
        case (.install, .moduleFailed("Faulty", .registration, let underlying)?, nil):
            #expect("\(underlying)".contains("PricingProbe is already registered"), "\(underlying)")
        case (.start, .moduleFailed("Faulty", .start, let underlying)?, nil):
            #expect("\(underlying)" == "the fault that TRADE_SERVER_FAULT=start asks for")
        case (.validation, nil, .validationFailed(let report)?):
            #expect(report.failures.count == 1)
            #expect("\(report)".contains("Unregistered is not registered"), "\(report)")
        default:
            Issue.record("\(fault): unexpected \(error)")
        }
        // The failed start left nothing installed.
        #expect(hive.installedModules.isEmpty)
    }
}

/// The article's server: compiled, and not run, since it would listen on 8080, take SIGTERM and SIGINT from the test
/// process, and end it on a failure. `TradeServer.application`, which the tests run, is the same wiring.
func startServer(logger: Logger) async {
    // snippet: server-application
    let hive = ServiceHive()
    let modules = ModulesService(
        [TradeModule()], in: hive,
        validation: .all { plan in plan.provide(CustomerSession.self, TradeModule.makeCustomerSession()) }
    )
    let router = Router(context: BasicHiveRequestContext.self)
    router.add(middleware: HiveMiddleware(hive))
    router.addComponents(at: "api")
    var app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 8080)),
        services: [modules],
        logger: logger
    )
    app.beforeServerStarts { try await modules.ready() }
    await app.runServiceOrExit()
    // end-snippet
}

/// Prices every item the same; `missing` has no price.
struct FlatPricing: PricingService {
    let cents: Int
    var missing: String? = nil
    var tier: String { "flat" }
    func unitPrice(of itemId: String) -> Money? { itemId == missing ? nil : Money(cents: cents) }
}

/// A health check that fails, for the reason given.
struct FailingCheck: HealthCheck {
    let reason: String
    var name: String { "payments" }
    func check() async -> HealthStatus { .unhealthy(reason) }
}

/// The body of a response, as text.
func body(_ response: TestResponse) -> String {
    String(decoding: response.body.readableBytesView, as: UTF8.self)
}
#endif

#if Hummingbird && canImport(FoundationNetworking)
import FoundationNetworking

@Suite("TradeServer, the executable", .timeLimit(.minutes(5)))
struct TradeServerProcessTests {
    @Test("the built server listens on 127.0.0.1, answers, and on SIGTERM stops gracefully and exits with 0")
    func sigterm() async throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = directory.appendingPathComponent("TradeServer")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "build the server first: swift build --traits Hummingbird")
        let server = Process()
        server.executableURL = executable
        server.environment = ProcessInfo.processInfo.environment.merging(["TRADE_SERVER_PORT": "0"]) { _, new in new }
        let output = Pipe()
        server.standardOutput = output
        server.standardError = output
        let lines = Locked<[String]>([])
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            lines.withLock { $0.append(contentsOf: text.split(separator: "\n").map(String.init)) }
        }
        try server.run()
        defer { if server.isRunning { server.terminate() } }

        let port = try await within("the server to listen") {
            while true {
                let listening = lines.current.first { $0.contains("listening on 127.0.0.1:") }
                if let listening, let port = listening.split(separator: ":").last.flatMap({ Int($0) }) { return port }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let url = URL(string: "http://127.0.0.1:\(port)/api/trade/order?item=hive-42&quantity=1")!
        let (data, response) = try await within("the order") { try await URLSession.shared.data(from: url) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"item":"hive-42","number":1,"quantity":1,"total":1250}"#)

        kill(server.processIdentifier, SIGTERM)
        try await within("the server to exit") {
            while server.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(server.terminationReason == .exit)
        #expect(server.terminationStatus == 0)
        let stopped = try await within("the last line") {
            while !lines.current.contains(where: { $0.contains("TradeServer stopped") }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            return true
        }
        #expect(stopped)
    }
}
#endif

#if Hummingbird && canImport(Glibc)
@Suite("TradeServer, the executable, when its startup fails", .timeLimit(.minutes(3)))
struct TradeServerStartupTests {
    /// The built server, beside the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("TradeServer").path

    @Test(
        "a startup refused at install, validation or start logs why and exits with status 1, without listening",
        arguments: [
            (StartupFault.install, "Module Faulty failed to register its services: "),
            (StartupFault.validation, "The modules installed, but 1 registration failed to resolve when the hive "),
            (StartupFault.start, "Module Faulty failed to start: the fault that TRADE_SERVER_FAULT=start asks for."),
        ])
    func refused(fault: StartupFault, reason: String) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.executable),
            "build the server first: swift build --traits Hummingbird")
        let (termination, output) = try await runProgram(
            Self.executable, environment: [StartupFault.variable: fault.rawValue, "TRADE_SERVER_PORT": "0"])
        #expect(termination == .exited(1), "\(output)")
        #expect(output.contains("TradeServer did not start, and exits with status 1: \(reason)"), "\(output)")
        #expect(!output.contains("listening on"), "\(output)")
        #expect(!output.contains("Fatal error"), "\(output)")
    }

    @Test("a TRADE_SERVER_FAULT that names no fault exits with status 64, naming the faults there are")
    func unknownFault() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.executable),
            "build the server first: swift build --traits Hummingbird")
        let (termination, output) = try await runProgram(
            Self.executable, environment: [StartupFault.variable: "stopp", "TRADE_SERVER_PORT": "0"])
        #expect(termination == .exited(64), "\(output)")
        #expect(
            output.contains(
                "TRADE_SERVER_FAULT is 'stopp', which names no fault. To fix, set it to one of install, validation, "
                    + "start, or unset it."),
            "\(output)")
    }
}
#endif
