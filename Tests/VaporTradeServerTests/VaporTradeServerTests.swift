#if Vapor
import ServiceHive
import ServiceHiveTesting
import ServiceHiveVapor
import Support
import Testing
import TradeModule
import Vapor
import VaporTesting

@testable import VaporTradeServer

@Suite("VaporTradeServer", .timeLimit(.minutes(5)))
struct VaporTradeServerTests {
    /// Runs `test` with the server's application, booted asynchronously so that its modules install, then shuts it
    /// down.
    func withServer<T>(
        hive: ServiceHive, extraModules: [any ServiceModule] = [], _ test: (Application) async throws -> T
    ) async throws -> T {
        let app = try await Application.make(.testing)
        app.logger = LogRecorder().logger
        do {
            try VaporTradeServer.configure(app, hive: hive, extraModules: extraModules)
            try await app.asyncBoot()
            let result = try await test(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    @Test("trade/order answers over HTTP, trade/quote, not reachable by URL, is not found, and shutdown stops Trade")
    func order() async throws {
        let hive = ServiceHive()
        try await withServer(hive: hive) { app in
            #expect(hive.installedModules == ["Trade"])
            let order = try await app.testing().sendRequest(.GET, "/api/trade/order?item=hive-42&quantity=2")
            #expect(order.status == .ok)
            #expect(order.body.string == #"{"item":"hive-42","number":1,"quantity":2,"total":2500}"#)
            let quote = try await app.testing().sendRequest(.GET, "/api/trade/quote?item=hive-42&quantity=1")
            #expect(quote.status == .notFound)
        }
        #expect(hive.installedModules.isEmpty)
    }

    @Test("each request has its own customer session")
    func sessions() async throws {
        let texts = try await withServer(hive: ServiceHive()) { app in
            var texts: [String] = []
            for customer in ["ada", "bo"] {
                let response = try await app.testing().sendRequest(
                    .GET, "/items/hive-42", headers: [VaporTradeServer.customerHeader: customer])
                texts.append(response.body.string)
            }
            texts.append(try await app.testing().sendRequest(.GET, "/me").body.string)
            return texts
        }
        #expect(
            texts == ["$12.50 for ada, who viewed [\"hive-42\"]", "$12.50 for bo, who viewed [\"hive-42\"]", "guest"])
    }

    @Test("GET /health answers ok when every module's health check passes")
    func healthy() async throws {
        let health = try await withServer(hive: ServiceHive()) { app in
            try await app.testing().sendRequest(.GET, "/health")
        }
        #expect(health.status == .ok)
        #expect(health.body.string == "ok")
    }

    @Test(
        "GET /health answers 503 naming each failing check: a module's own, and one a test contributes",
        .testHive {
            $0.register(PricingService.self, name: "premium") { FlatPricing(cents: 100, missing: "smoker") }
            $0.contribute(HealthCheck.self, name: "payments") { FailingCheck(reason: "the gateway is down") }
        })
    func unhealthy() async throws {
        let health = try await withServer(hive: try TestHiveTrait.current) { app in
            try await app.testing().sendRequest(.GET, "/health")
        }
        #expect(health.status == .serviceUnavailable)
        #expect(health.body.string == "unhealthy: trade: no flat price for smoker; payments: the gateway is down")
    }

    @Test("a module that fails to start refuses the boot at once: the test fails fast instead of hanging")
    func refusedStartup() async throws {
        let hive = ServiceHive()
        let error = await #expect(throws: ServiceHiveError.self) {
            try await withServer(hive: hive, extraModules: [FailingModule()]) { _ in }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("the payments gateway is down"))
        #expect(hive.installedModules.isEmpty)
    }
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

/// A module whose start fails.
struct FailingModule: ServiceModule {
    struct Down: Error, CustomStringConvertible {
        var description: String { "the payments gateway is down" }
    }
    func register(in hive: ServiceHive) throws {}
    func start(in hive: ServiceHive) async throws { throw Down() }
}
#endif
