import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

@Suite("Components: a reply encodes to JSON", .timeLimit(.minutes(5)))
struct ComponentReplyJSONTests {
    struct Line: Encodable, Sendable {
        var item: String
        var quantity: Int
    }

    func json(_ reply: ServiceHive.ComponentReply) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(reply), as: UTF8.self)
    }

    @Test("numbers, booleans, strings, nil, arrays, dictionaries and Encodable values encode as JSON")
    func values() throws {
        let reply: ServiceHive.ComponentReply = [
            "total": 2_500, "ratio": 0.5, "small": Int8(-3), "paid": true, "tier": "standard",
            "note": String?.none, "tags": ["a", "b"], "mixed": [1, "two", false, [3]] as [any Sendable],
            "address": ["city": "Lyon", "zip": 69_001] as [String: any Sendable],
            "lines": [Line(item: "hive-42", quantity: 2)], "line": Line(item: "smoker", quantity: 1),
            "when": Date(timeIntervalSince1970: 0), "nested": ["deep": [["x": String?.none]] as [any Sendable]],
        ]
        #expect(
            try json(reply)
                == #"{"address":{"city":"Lyon","zip":69001},"line":{"item":"smoker","quantity":1},"#
                + #""lines":[{"item":"hive-42","quantity":2}],"mixed":[1,"two",false,[3]],"#
                + #""nested":{"deep":[{"x":null}]},"note":null,"paid":true,"ratio":0.5,"small":-3,"#
                + #""tags":["a","b"],"tier":"standard","total":2500,"when":"1970-01-01T00:00:00Z"}"#)
        #expect(try json([:]) == "{}")
    }

    @Test("the reply of a call encodes, and a value that does not encode names its path and the command")
    func notEncodable() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("trade") { component in
            component.command("quote") { _ in
                let second: [String: any Sendable] = ["item": "smoker", "when": ReplyOpaque()]
                return ["total": 1, "lines": [["item": "hive-42"], second] as [any Sendable]]
            }
        }
        let reply = try await hive.call("trade", "quote")
        #expect(throws: EncodingError.self) { try json(reply) }
        do {
            _ = try json(reply)
            Issue.record("a reply with an Opaque value encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(
                context.debugDescription
                    == "The reply of trade/quote has 'lines[1].when' as ServiceHiveComponentsTests.ReplyOpaque() (ReplyOpaque), which does not encode. "
                    + "To fix, reply with numbers, booleans, text, arrays, dictionaries, or values of a type that "
                    + "conforms to Encodable.")
            #expect(
                context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["lines", "1", "when"])
        }
        let unstamped: ServiceHive.ComponentReply = ["value": ReplyOpaque()]
        do {
            _ = try json(unstamped)
            Issue.record("an Opaque value encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(
                context.debugDescription.hasPrefix(
                    "The reply has 'value' as ServiceHiveComponentsTests.ReplyOpaque() (ReplyOpaque)"))
        }
    }
}

/// Not `Encodable`.
struct ReplyOpaque: Sendable {}

@Suite("Components: the entry of the HTTP mount", .timeLimit(.minutes(5)))
struct OpenRequestTests {
    @Test("a request runs a command reachable by URL, with the query's text and the body's typed values")
    func runs() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("all", reachableByURL: true) { call in
                [
                    "text": try call.argument("text", as: String.self), "n": try call.argument("n", as: Int.self),
                    "flag": try call.argument("flag", as: Bool.self), "url": call.url?.absoluteString ?? "-",
                ]
            }
        }
        let reply = try await hive.openRequest(
            path: "echo/all", query: "text=caf%C3%A9&n=2", bodyArguments: ["flag": true])
        #expect(try reply.value("text", as: String.self) == "café")
        #expect(try reply.value("n", as: Int.self) == 2)
        #expect(try reply.value("flag", as: Bool.self))
        #expect(try reply.value("url", as: String.self) == "http://echo/all?text=caf%C3%A9&n=2")
    }

    @Test("a name in both the query and the body is refused naming it, and a URL over the limit as open(_:) refuses it")
    func limits() async throws {
        let hive = try tradeComponentHive()
        let repeated = await asyncError(ComponentHTTPFailure.self) {
            _ = try await hive.openRequest(
                path: "trade/order", query: "item=a&quantity=1", bodyArguments: ["item": "b"])
        }
        #expect(repeated?.statusCode == 400)
        #expect(repeated?.argument == "item")
        #expect(repeated?.message == "The key 'item' appears in both the query and the JSON body.")
        let long = await asyncError {
            _ = try await hive.openRequest(path: "trade/order", query: "item=" + String(repeating: "x", count: 2_100))
        }
        guard case .invalidURL(_, .tooLong(2_124, 2_048)) = long else {
            Issue.record("expected tooLong, got \(String(describing: long))")
            return
        }
    }

    @Test("a command not reachable by URL is refused, and the fallback never answers")
    func noFallback() async throws {
        let hive = try tradeComponentHive()
        try hive.registerComponentFallback { _, _ in ["screen": "not-found"] }
        let unreachable = await asyncError {
            _ = try await hive.openRequest(path: "trade/quote", query: "item=hive-42&quantity=1")
        }
        #expect(unreachable?.code == 400)
        let missing = await asyncError { _ = try await hive.openRequest(path: "promo/spring") }
        #expect(missing?.code == 100)
        let command = await asyncError { _ = try await hive.openRequest(path: "trade/sell") }
        #expect(command?.code == 200)
        // open(_:) still lets the fallback answer.
        #expect(try await hive.open(url("shop://promo/spring")!).value("screen", as: String.self) == "not-found")
    }
}
