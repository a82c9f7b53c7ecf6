#if Vapor
import ServiceHive
import ServiceHiveComponents
import ServiceHiveVapor
import Support
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: a hive per request, and errors that tell callers nothing they should not know", .timeLimit(.minutes(5)))
struct RequestHiveTests {
    @Test("request.hive is made once per request, provides the request's info and what useHive adds, and is not shared")
    func perRequest() async throws {
        let answers = try await withShop(routes: { app in
            app.get("who") { request in
                let first = try request.hive
                let again = try request.hive
                let provided = try first.resolve(VaporRequestInfo.self)
                let greeting = try again.resolve(Greeter.self).greeting
                let info =
                    provided.id == request.id && provided.path == "/who" && provided.url.query == request.url.query
                return "\(first === again) \(info) \(provided.url.query ?? "-") \(greeting)"
            }
        }) { app in
            [
                try await send(app, .GET, "/who?page=2", headers: [Caller.headerName: "ada"]).body,
                try await send(app, .GET, "/who", headers: [Caller.headerName: "bo"]).body,
            ]
        }
        #expect(answers == ["true true page=2 hello, ada", "true true - hello, bo"])
    }

    @Test("tasks of one request that read its hive for the first time at once all get the same hive")
    func firstReadsAtOnce() async throws {
        let answers = try await withShop(routes: { app in
            app.get("race") { request -> String in
                let hives = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<8 { group.addTask { ObjectIdentifier(try request.hive) } }
                    return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
                }
                return "\(hives.count) \(hives.contains(ObjectIdentifier(try request.hive)))"
            }
        }) { app in
            var answers: [String] = []
            for _ in 0..<50 { answers.append(try await send(app, .GET, "/race").body) }
            return answers
        }
        #expect(answers == Array(repeating: "1 true", count: 50))
    }

    @Test("the errors of the hive and of components answer their status, a safe reason and the code, in development")
    func errors() async throws {
        let answers = try await withShop(routes: { app in
            app.get("unregistered") { request -> String in
                _ = try request.hive.resolve(Marker.self)
                return "unreachable"
            }
            app.get("call", ":command") { request -> String in
                let reply = try await request.hive.call("shop", request.parameters.get("command") ?? "")
                return "\(reply)"
            }
        }) { app in
            #expect(app.environment != .production)
            return [
                try await send(app, .GET, "/unregistered"), try await send(app, .GET, "/call/sell"),
                try await send(app, .GET, "/call/ledger"),
            ]
        }
        #expect(answers.map(\.status) == [500, 404, 500])
        #expect(answers.map { $0.headers.first(name: "ServiceHive-Error-Code") } == ["1", "200", "500"])
        // Vapor's ErrorMiddleware writes {"error":true,"reason":…}, in an order of its own.
        #expect(answers.allSatisfy { $0.body.contains(#""error":true"#) })
        #expect(answers[0].body.contains(#""reason":"The server failed.""#))
        #expect(answers[1].body.contains(#""reason":"There is no command at this path.""#))
        #expect(answers[2].body.contains(#""reason":"The server failed to run the command.""#))
        #expect(answers.allSatisfy { !$0.body.contains("Marker") && !$0.body.contains("10.0.0.7") })
    }
}
#endif
