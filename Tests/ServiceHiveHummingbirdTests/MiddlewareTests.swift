#if Hummingbird
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceHive
import ServiceHiveHummingbird
import Support
import Testing

@Suite("HiveMiddleware: a hive per request", .timeLimit(.minutes(5)))
struct MiddlewareTests {
    @Test("each request resolves from its own hive, with its own caller, also when many run at once")
    func hivePerRequest() async throws {
        let hive = try shopHive()
        let router = shopRouter(hive)
        router.get("greeting") { _, context in try context.resolve(Greeter.self).greeting }
        let app = Application(router: router, logger: LogRecorder().logger)
        let greetings = try await app.test(.router) { client in
            try await within("200 requests") {
                try await withThrowingTaskGroup(of: (Int, String).self) { requests in
                    for index in 0..<200 {
                        requests.addTask {
                            let response = try await client.execute(
                                uri: "/greeting", method: .get, headers: [Caller.header: "caller-\(index)"])
                            return (index, text(of: response))
                        }
                    }
                    return try await requests.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
                }
            }
        }
        #expect(greetings == Dictionary(uniqueKeysWithValues: (0..<200).map { ($0, "hello, caller-\($0)") }))
        // The application's hive kept nothing built from a request: it still cannot build a Greeter.
        #expect(throws: ServiceHiveError.self) { try hive.resolve(Greeter.self) }
    }

    @Test("the request's hive provides the request's info and logger, and what the closure adds")
    func provisions() async throws {
        let hive = ServiceHive()
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(
            middleware: HiveMiddleware(hive) { request, _, provisions in
                provisions.provide(String.self, name: "agent", request.headers[.userAgent] ?? "-")
            })
        // The route runs wherever the router runs it: it records what it saw, and the test checks it afterwards.
        let seen = Locked<[String]>([])
        router.get("info/:id") { request, context in
            let info = try context.resolve(HiveRequestInfo.self)
            let logger = try context.resolve(Logger.self)
            let agent = try context.resolve(String.self, name: "agent")
            let checks = [
                info.id == context.id ? nil : "the info's id \(info.id) is not the request's \(context.id)",
                logger[metadataKey: "hb.request.id"]?.description == context.id ? nil : "the logger's id differs",
                try context.hive.parent === hive ? nil : "the request's hive is not a child of the application's",
            ]
            seen.withLock { $0 += checks.compactMap { $0 } + ["answered"] }
            return "\(info.method) \(info.path) \(agent)"
        }
        let app = Application(router: router, logger: LogRecorder().logger)
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/info/7?x=1", method: .get, headers: [.userAgent: "tests"])
            #expect(text(of: response) == "GET /info/7 tests")
        }
        #expect(seen.current == ["answered"])
    }

    @Test("a route the middleware does not cover gets a clear error when it resolves")
    func noMiddleware() async throws {
        let router = Router(context: BasicHiveRequestContext.self)
        let seen = Locked<[String]>([])
        router.get("bare") { _, context in
            do {
                _ = try context.resolve(Int.self)
            } catch {
                seen.withLock { $0.append("\(error)") }
            }
            return "done"
        }
        let app = Application(router: router, logger: LogRecorder().logger)
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/bare", method: .get)
        }
        #expect(
            seen.current == [
                "This request has no hive: HiveMiddleware did not run for it. To fix, add it to the router, or to "
                    + "the group of this route, before the route: router.add(middleware: HiveMiddleware(hive))."
            ])
    }
}

/// The body of a response, as text.
func text(of response: TestResponse) -> String {
    String(decoding: response.body.readableBytesView, as: UTF8.self)
}
#endif
