#if Hummingbird
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceHive
import ServiceHiveHummingbird
import Support
import Testing

@Suite("Components over HTTP", .timeLimit(.minutes(5)))
struct ComponentRoutesTests {
    let logs = LogRecorder()

    /// Sends each request to a new application of the shop hive and returns the status and body of each.
    func send(
        _ requests: [(method: HTTPRequest.Method, uri: String, body: String?)],
        headers: HTTPFields = [.contentType: "application/json"],
        hive: ServiceHive? = nil
    ) async throws -> [(status: Int, body: String)] {
        let app = shopApplication(try hive ?? shopHive(), logs: logs)
        return try await app.test(.router) { client in
            var answers: [(status: Int, body: String)] = []
            for request in requests {
                let response = try await client.execute(
                    uri: request.uri, method: request.method, headers: headers,
                    body: request.body.map { ByteBuffer(string: $0) })
                answers.append((response.status.code, text(of: response)))
            }
            return answers
        }
    }

    func get(_ uri: String) async throws -> (status: Int, body: String) {
        try await send([(.get, uri, nil)])[0]
    }

    func post(_ uri: String, _ body: String, headers: HTTPFields = [.contentType: "application/json"]) async throws
        -> (status: Int, body: String)
    {
        try await send([(.post, uri, body)], headers: headers)[0]
    }

    // MARK: - Replies

    @Test("GET with a query runs the command, and the reply is a JSON object")
    func getWithQuery() async throws {
        let answer = try await get("/api/shop/order?item=hive-42&quantity=2&gift=true")
        #expect(answer.status == 200)
        #expect(
            answer.body == #"{"gift":true,"item":"hive-42","lines":[{"item":"hive-42","quantity":2}],"quantity":2}"#)
        #expect(try await get("/api/shop/echo?text=caf%C3%A9%20au%20lait").body == #"{"n":0,"text":"café au lait"}"#)
    }

    @Test("POST with a JSON body passes its typed values, and with the query's too")
    func postWithBody() async throws {
        let typed = try await post("/api/shop/order?gift=true", #"{"item":"honey-jar","quantity":3.0}"#)
        #expect(typed.status == 200)
        #expect(typed.body.contains(#""quantity":3"#) && typed.body.contains(#""gift":true"#))
        let ship = try await post("/api/shop/ship", #"{"item":"hive-42","speed":"express"}"#)
        #expect(ship.body == #"{"days":1,"item":"hive-42"}"#)
        let empty = try await post("/api/shop/echo?text=x", "")
        #expect(empty.body == #"{"n":0,"text":"x"}"#)
        let null = try await post("/api/shop/echo", #"{"text":"y","n":null}"#)
        #expect(null.body == #"{"n":0,"text":"y"}"#)
    }

    @Test("commands run in the request's hive, and see what the request provides")
    func requestHive() async throws {
        let answers = try await send([(.get, "/api/shop/greet", nil)], headers: [Caller.header: "ada"])
        #expect(answers[0].body == #"{"greeting":"hello, ada"}"#)
    }

    // MARK: - Errors

    @Test("a missing component, a missing command and one not reachable by URL answer the same 404")
    func notFound() async throws {
        let answers = try await send([
            (.get, "/api/promo/spring", nil), (.get, "/api/shop/sell", nil), (.get, "/api/shop/audit", nil),
            (.post, "/api/shop/audit", "{}"), (.get, "/api/shop", nil), (.get, "/api/shop/order/extra", nil),
            (.get, "/api/%2E%2E/order", nil),
        ])
        for answer in answers {
            #expect(answer.status == 404)
            #expect(answer.body == #"{"error":{"message":"There is no command at this path."}}"#)
        }
        // The developer's text, with what exists, is in the log only.
        let logged = logs.all.map { $0.metadata["hive.error"] ?? "" }
        #expect(logged.contains { $0.hasPrefix("No component named 'promo'.") })
        #expect(logged.contains { $0.hasPrefix("shop has no command 'sell'. Its commands: audit, echo, greet") })
        #expect(logged.contains { $0.hasPrefix("shop/audit is not reachable by URL.") })
        #expect(logs.all.count == answers.count)
        #expect(logs.all.allSatisfy { $0.level == .debug })
        #expect(logs.all.first?.message == "GET /api/promo/spring answered 404")
        #expect(logs.all.first?.metadata["http.response.status_code"] == "404")
        #expect(logs.all.first?.metadata["hive.error.code"] == "100")
    }

    @Test("a missing argument, or one that does not convert, answers 400 naming the argument")
    func badArguments() async throws {
        let answers = try await send([
            (.get, "/api/shop/order?item=hive-42", nil), (.get, "/api/shop/order?item=hive-42&quantity=two", nil),
            (.post, "/api/shop/ship", #"{"item":"hive-42","speed":"warp"}"#),
            (.post, "/api/shop/ship", #"{"item":"hive-42"}"#),
        ])
        #expect(answers.map(\.status) == [400, 400, 400, 400])
        #expect(
            answers.map(\.body) == [
                #"{"error":{"argument":"quantity","message":"The argument 'quantity' is missing."}}"#,
                #"{"error":{"argument":"quantity","message":"The argument 'quantity' is not a valid Int."}}"#,
                #"{"error":{"argument":"speed","message":"The argument 'speed' is not valid."}}"#,
                #"{"error":{"argument":"speed","message":"The argument 'speed' is missing."}}"#,
            ])
    }

    @Test("a failed command answers 500 with a generic body, and its error goes to the log only")
    func failure() async throws {
        let answers = try await send([
            (.get, "/api/shop/ledger", nil), (.get, "/api/shop/opaque", nil), (.get, "/api/shop/misnumbered", nil),
        ])
        for answer in answers {
            #expect(answer.status == 500)
            #expect(answer.body == #"{"error":{"message":"The server failed to run the command."}}"#)
            #expect(!answer.body.contains("10.0.0.7"))
        }
        #expect(logs.all.count == 3)
        #expect(logs.all.allSatisfy { $0.level == .error && $0.metadata["http.response.status_code"] == "500" })
        let errors = logs.all.map { $0.metadata["hive.error"] ?? "" }
        #expect(errors.contains("shop/ledger failed: the ledger at 10.0.0.7 is offline."))
        #expect(errors.contains { $0.contains("The reply of shop/opaque has 'when' as ") })
        #expect(errors.contains { $0.contains("Opaque() (Opaque), which does not encode.") })
        #expect(errors.contains("shop/misnumbered failed: Misnumbered()."))
    }

    @Test("a command's public error answers with its status and message")
    func publicError() async throws {
        let answer = try await get("/api/shop/order?item=smoker&quantity=1")
        #expect(answer.status == 409)
        #expect(answer.body == #"{"error":{"message":"smoker is sold out."}}"#)
    }

    @Test("malformed, oversized and non-JSON bodies, and long or malformed queries, answer 4xx")
    func badRequests() async throws {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let answers = try await send([
            (.post, "/api/shop/echo", "{"), (.post, "/api/shop/echo", #"["text"]"#),
            (.post, "/api/shop/echo", #"{"text":\#(deep)}"#),
            (.post, "/api/shop/echo", #"{"text":"\#(String(repeating: "x", count: 70_000))"}"#),
            (.post, "/api/shop/echo?text=a", #"{"text":"b"}"#),
            (.get, "/api/shop/echo?text=" + String(repeating: "x", count: 2_100), nil),
            (.get, "/api/shop/echo?text=%ZZ", nil), (.get, "/api/shop/echo?text=a&text=b", nil),
            (.get, "/api/shop/echo?=x", nil),
        ])
        #expect(answers.map(\.status) == [400, 400, 400, 413, 400, 414, 400, 400, 400])
        #expect(
            answers[0].body
                == #"{"error":{"message":"The body must be a JSON object, whose members are the arguments."}}"#)
        #expect(answers[2].body.contains("deeper than 32 levels"))
        let text = try await post("/api/shop/echo", "text=a", headers: [.contentType: "text/plain"])
        #expect(text.status == 415)
        let vendor = try await post(
            "/api/shop/echo", #"{"text":"v"}"#, headers: [.contentType: "application/vnd.shop+json; charset=utf-8"])
        #expect(vendor.status == 200)
    }

    @Test("an override of a command keeps its URL reachability over HTTP too")
    func overrideOverHTTP() async throws {
        let hive = try shopHive()
        try await hive.withOverrides {
            $0.registerCommand("order", of: "shop") { _ in ["item": "fake"] }
        } operation: {
            let answers = try await send([(.get, "/api/shop/order", nil)], hive: hive)
            #expect(answers[0].body == #"{"item":"fake"}"#)
        }
    }

    @Test("without HiveMiddleware the routes answer 500, and the log says to add it")
    func withoutMiddleware() async throws {
        let router = Router(context: BasicHiveRequestContext.self)
        router.addComponents(at: "v1/components")
        let app = Application(router: router, logger: logs.logger)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/components/shop/echo?text=a", method: .get)
            #expect(response.status == .internalServerError)
        }
        let line = try #require(logs.all.first)
        #expect(line.level == .error)
        #expect(line.message == "GET /v1/components/shop/echo answered 500")
        #expect(line.metadata["hive.error"]?.hasPrefix("This request has no hive: HiveMiddleware did not run") == true)
        #expect(line.metadata["http.response.status_code"] == "500")
        #expect(line.metadata["hive.error.code"] == nil)
    }

    // MARK: - Repeated keys

    /// `{"error":{"argument":…,"message":…}}`, as a failure answers.
    func refusal(_ argument: String, _ message: String) -> String {
        #"{"error":{"argument":"\#(argument)","message":"\#(message)"}}"#
    }

    @Test("a key repeated in the query answers 400 naming the key and the query, also when one is percent-encoded")
    func repeatedInQuery() async throws {
        let answers = try await send([
            (.get, "/api/shop/order?item=a&quantity=1&item=b", nil),
            (.get, "/api/shop/order?it%65m=a&quantity=1&item=b", nil),
            (.post, "/api/shop/echo?text=a&text=a", #"{"n":1}"#),
            (.get, "/api/shop/echo?text=a&caf%C3%A9=1&cafe%CC%81=2", nil),  // one key, composed and decomposed
        ])
        #expect(answers.map(\.status) == [400, 400, 400, 400])
        #expect(answers[0].body == refusal("item", "The key 'item' appears more than once in the query."))
        #expect(answers[1].body == answers[0].body)
        #expect(answers[2].body == refusal("text", "The key 'text' appears more than once in the query."))
        #expect(answers[3].body.contains("' appears more than once in the query."))
    }

    @Test("a key repeated in the JSON body answers 400 naming the key and the body, where a decoder would keep one")
    func repeatedInBody() async throws {
        let answers = try await send([
            (.post, "/api/shop/order", #"{"item":1,"quantity":1,"item":2}"#),
            (.post, "/api/shop/order", #"{"item":"a","quantity":1,"it\u0065m":"b"}"#),
            (.post, "/api/shop/order", #"{ "quantity" : 1 , "item" : "a" , "quantity" : 2 }"#),
            (.post, "/api/shop/echo", #"{"text":"x","n":{"a":1,"b":[{"c":1,"c":2}]}}"#),
            (.post, "/api/shop/echo", #"{"te\"xt":1,"te\"xt":2}"#),
        ])
        #expect(answers.map(\.status) == [400, 400, 400, 400, 400])
        #expect(answers[0].body == refusal("item", "The key 'item' appears more than once in the JSON body."))
        #expect(answers[1].body == answers[0].body)
        #expect(answers[2].body == refusal("quantity", "The key 'quantity' appears more than once in the JSON body."))
        #expect(
            answers[3].body
                == refusal("n", "The key 'c' appears more than once in an object in the argument 'n' of the JSON body.")
        )
        #expect(answers[4].body == refusal(#"te\"xt"#, #"The key 'te\"xt' appears more than once in the JSON body."#))
    }

    @Test("a key in both the query and the JSON body answers 400 naming the key and both places")
    func repeatedAcross() async throws {
        let answers = try await send([
            (.post, "/api/shop/echo?text=a", #"{"text":"b"}"#),
            (.post, "/api/shop/order?quantity=1&it%65m=a", #"{"item":"b"}"#),
            (.post, "/api/shop/order?item=a&quantity=1", #"{"it\u0065m":"b"}"#),
        ])
        #expect(answers.map(\.status) == [400, 400, 400])
        #expect(answers[0].body == refusal("text", "The key 'text' appears in both the query and the JSON body."))
        #expect(answers[1].body == refusal("item", "The key 'item' appears in both the query and the JSON body."))
        #expect(answers[2].body == answers[1].body)
    }

    @Test("keys that only look alike, a key's name as a value, and one key in sibling objects are not repeats")
    func notRepeated() async throws {
        let answers = try await send([
            (.post, "/api/shop/order", #"{"item":"quantity","quantity":2,"notes":[{"item":1},{"item":2}]}"#),
            (.post, "/api/shop/order?gift=true", #"{"item":"a","quantity":1,"Item":"b","item ":"c"}"#),
            (.post, "/api/shop/order", #"{"item":"x\"item\":","quantity":1}"#),
            (.get, "/api/shop/order?item=a&quantity=1&gift=false&Item=b", nil),
        ])
        #expect(answers.map(\.status) == [200, 200, 200, 200])
    }

    // MARK: - The log

    @Test("a 4xx is logged at debug, a 5xx at error, and clientErrorLogLevel chooses the level of a 4xx")
    func logLevels() async throws {
        _ = try await send([(.get, "/api/shop/order?item=smoker&quantity=1", nil), (.get, "/api/shop/ledger", nil)])
        #expect(logs.all.map(\.level) == [.debug, .error])

        let chosen = LogRecorder()
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(middleware: HiveMiddleware(try shopHive()))
        router.addComponents(at: "api", clientErrorLogLevel: .warning)
        let app = Application(router: router, logger: chosen.logger)
        try await app.test(.router) { client in
            for uri in ["/api/shop/order?item=smoker&quantity=1", "/api/shop/echo", "/api/shop/ledger"] {
                _ = try await client.execute(uri: uri, method: .get)
            }
        }
        #expect(chosen.all.map(\.level) == [.warning, .warning, .error])
    }

    @Test("each line names the HTTP status and the library's code in fields apart, and no text reads as the status")
    func logFields() async throws {
        _ = try await send([
            (.get, "/api/shop/order?item=smoker&quantity=1", nil), (.get, "/api/shop/order?item=a", nil),
            (.post, "/api/shop/echo", "{"), (.get, "/api/shop/ledger", nil),
        ])
        let lines = logs.all
        #expect(
            lines.map(\.message) == [
                "GET /api/shop/order answered 409", "GET /api/shop/order answered 400",
                "POST /api/shop/echo answered 400",
                "GET /api/shop/ledger answered 500",
            ])
        #expect(lines.map { $0.metadata["http.response.status_code"] } == ["409", "400", "400", "500"])
        // A public error's status is 409, and the library's code says the command threw: 500.
        #expect(lines.map { $0.metadata["hive.error.code"] } == ["500", "300", nil, "500"])
        #expect(lines[0].metadata["hive.error"] == #"shop/order failed: ItemSoldOut(item: "smoker")."#)
        #expect(lines[2].metadata["hive.error"] == "The body must be a JSON object, whose members are the arguments.")
        #expect(!lines.contains { ($0.metadata["hive.error"] ?? "").contains("(code ") })
    }
}
#endif
