#if Vapor
import ServiceHive
import ServiceHiveVapor
import Support
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: components over HTTP with the rules every adapter shares", .timeLimit(.minutes(5)))
struct SharedRulesTests {
    @Test("every request of the shared table answers the status and body the table gives, as on Hummingbird")
    func table() async throws {
        let mismatches = try await withShop { app in
            var mismatches: [String] = []
            for rule in httpRuleCases {
                let answer = try await send(
                    app, HTTPMethod(rawValue: rule.method), rule.target, contentType: rule.contentType, body: rule.body)
                let status = rule.onVapor?.status ?? rule.status
                let body = rule.onVapor.map(\.answer) ?? rule.answer
                if answer.status != status || (body.map { $0 != answer.body } ?? false) {
                    mismatches.append("\(rule): answered \(answer.status) \(answer.body.prefix(300))")
                }
            }
            return mismatches
        }
        #expect(httpRuleCases.count > 30)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("commands run in the request's hive, and see what the request provides")
    func requestHive() async throws {
        let answer = try await withShop { app in
            try await send(app, .GET, "/api/shop/greet", headers: [Caller.headerName: "ada"])
        }
        #expect(answer.status == 200)
        #expect(answer.body == #"{"greeting":"hello, ada"}"#)
        #expect(answer.headers.first(name: .contentType) == "application/json; charset=utf-8")
    }

    @Test("a failure is logged once: a 4xx at debug, a 5xx at error, with the status and the library's code apart")
    func logs() async throws {
        let logs = LogRecorder()
        _ = try await withShop(logs: logs) { app in
            _ = try await send(app, .GET, "/api/shop/order?item=smoker&quantity=1")
            _ = try await send(app, .GET, "/api/shop/ledger")
        }
        let lines = logs.all.filter { $0.message.contains(" answered ") }
        #expect(lines.map(\.message) == ["GET /api/shop/order answered 409", "GET /api/shop/ledger answered 500"])
        #expect(lines.map(\.level) == [.debug, .error])
        #expect(lines.map { $0.metadata["hive.error.code"] } == ["500", "500"])
        #expect(lines[1].metadata["hive.error"] == "shop/ledger failed: the ledger at 10.0.0.7 is offline.")
    }

    @Test("without useHive the components answer 500, and the log says to give the application a hive")
    func withoutHive() async throws {
        let logs = LogRecorder()
        let app = try await Application.make(.testing)
        app.logger = logs.logger
        app.grouped("api").hiveComponents()
        let answer: (status: Int, body: String, headers: HTTPHeaders)
        do {
            answer = try await send(app, .GET, "/api/shop/echo?text=a")
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        #expect(answer.status == 500)
        #expect(answer.body == #"{"error":{"message":"The server failed to run the command."}}"#)
        let line = try #require(logs.all.first { $0.message.contains(" answered ") })
        #expect(line.level == .error)
        #expect(line.metadata["hive.error"]?.hasPrefix("This application has no hive.") == true)
    }
}
#endif
