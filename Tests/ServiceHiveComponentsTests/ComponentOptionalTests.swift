import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// An optional type reads a missing value as nil, and a present value that does not convert as an error: on every
// path a value is read by, so that a command never takes a wrong value for an absent one.

struct OptionalCount: Codable, Sendable, Equatable {
    var count: Int?
    var counts: [Int?]?
    var addresses: [Address?]?
}

extension ServiceHive.Command where Input == OptionalCount, Output == OptionalCount {
    static var optionalEcho: Self { .init(component: "optional", name: "echo") }
}

@Suite("Components: an optional reads a missing value as nil, and a wrong one as an error", .timeLimit(.minutes(5)))
struct ComponentOptionalTests {
    /// A hive whose `optional/read` replies with whether `count`, read as `Int?`, is nil, and whose typed
    /// `optional/echo` replies with its input; both are reachable by URL.
    func optionalHive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.registerComponent("optional") { component in
            component.command("read", reachableByURL: true) { call in
                let count = try call.argument("count", as: Int?.self)
                return ["isNil": count == nil, "count": count ?? -1]
            }
            component.command(.optionalEcho, reachableByURL: true) { input, _ in input }
        }
        return hive
    }

    @Test("a call's optional argument: missing or nil reads as nil, text converts, a wrong value is a mismatch")
    func callArgument() throws {
        let hive = try optionalHive()
        let none: Int? = nil
        for arguments in [[:], ["count": none]] as [[String: any Sendable]] {
            #expect(try hive.call("optional", "read", arguments: arguments).value("isNil", as: Bool.self))
        }
        #expect(try hive.call("optional", "read", arguments: ["count": "7"]).value("count", as: Int.self) == 7)
        #expect(try hive.call("optional", "read", arguments: ["count": 7.0]).value("count", as: Int.self) == 7)
        let wrong: [(any Sendable, String)] = [
            ("five", #""five" (String)"#), (2.5, "2.5 (Double)"), (true, "true (Bool)"),
            (["1"], #"["1"] (Array<String>)"#),
        ]
        for (value, found) in wrong {
            let thrown = error { _ = try hive.call("optional", "read", arguments: ["count": value]) }
            guard case .argumentTypeMismatch("optional", "read", "count", "Optional<Int>", found) = thrown else {
                Issue.record("\(value): expected argumentTypeMismatch, got \(String(describing: thrown))")
                continue
            }
            #expect(thrown?.code == 301)
        }
    }

    @Test("a reply's optional value: missing reads as nil, a wrong value is a mismatch")
    func replyValue() throws {
        let none: Bool? = nil
        let reply: ServiceHive.ComponentReply = ["flag": 5, "text": "yes", "none": none, "ok": "true"]
        #expect(try reply.value("missing", as: Bool?.self) == nil)
        #expect(try reply.value("none", as: Bool?.self) == nil)
        #expect(try reply.value("ok", as: Bool?.self) == true)
        for name in ["flag", "text"] {
            let thrown = error { _ = try reply.value(name, as: Bool?.self) }
            guard case .replyValueTypeMismatch("", "", name, "Optional<Bool>", _) = thrown else {
                Issue.record("\(name): expected replyValueTypeMismatch, got \(String(describing: thrown))")
                continue
            }
            #expect(thrown?.code == 303)
        }
    }

    @Test("a reply from a call names its command when an optional value does not convert")
    func replyValueOfACall() throws {
        let hive = try optionalHive()
        let reply = try hive.call("optional", "read", arguments: ["count": 3])
        let thrown = error { _ = try reply.value("isNil", as: Int?.self) }
        guard case .replyValueTypeMismatch("optional", "read", "isNil", "Optional<Int>", "false (Bool)") = thrown else {
            Issue.record("expected replyValueTypeMismatch, got \(String(describing: thrown))")
            return
        }
    }

    @Test("a URL's optional argument: absent reads as nil, bad text is a mismatch")
    func urlArgument() async throws {
        let hive = try optionalHive()
        #expect(try await hive.open(url("shop://optional/read")!).value("isNil", as: Bool.self))
        #expect(try await hive.open(url("shop://optional/read?count=12")!).value("count", as: Int.self) == 12)
        for text in ["shop://optional/read?count=abc", "shop://optional/read?count=", "shop://optional/read?count"] {
            let thrown = await asyncError { _ = try await hive.open(url(text)!) }
            guard case .argumentTypeMismatch("optional", "read", "count", "Optional<Int>", _) = thrown else {
                Issue.record("\(text): expected argumentTypeMismatch, got \(String(describing: thrown))")
                continue
            }
        }
    }

    @Test("a typed command's optional field and optional list elements: nil when absent, an error when wrong")
    func typedCommand() async throws {
        let hive = try optionalHive()
        let none: Int? = nil
        #expect(try await hive.call(.optionalEcho, OptionalCount()) == OptionalCount())
        let both = OptionalCount(count: 2, counts: [1, nil])
        #expect(try await hive.call(.optionalEcho, both) == both)
        #expect(try await hive.open(url("shop://optional/echo?count=4")!).value("count", as: Int?.self) == 4)
        #expect(try await hive.open(url("shop://optional/echo")!).value("count", as: Int?.self) == nil)

        let wrongField = await asyncError { _ = try await hive.open(url("shop://optional/echo?count=abc")!) }
        guard case .argumentTypeMismatch("optional", "echo", "count", "Int", #""abc" (String)"#) = wrongField else {
            Issue.record("expected argumentTypeMismatch of count, got \(String(describing: wrongField))")
            return
        }
        let arguments: [String: any Sendable] = ["counts": [1, none, "x"] as [any Sendable]]
        let wrongElement = await asyncError { _ = try await hive.call("optional", "echo", arguments: arguments) }
        guard case .argumentTypeMismatch("optional", "echo", "counts[2]", "Int", #""x" (String)"#) = wrongElement
        else {
            Issue.record("expected argumentTypeMismatch of counts[2], got \(String(describing: wrongElement))")
            return
        }
        let lyon: [String: any Sendable] = ["city": "Lyon", "zip": "69001"]
        let values: [String: any Sendable] = [
            "counts": ["1", none] as [any Sendable], "addresses": [none, lyon] as [any Sendable],
        ]
        let decoded = try ServiceHive.ComponentReply(values).decode(OptionalCount.self)
        #expect(decoded == OptionalCount(counts: [1, nil], addresses: [nil, Address(city: "Lyon", zip: 69_001)]))
        let wrongReply = error {
            _ = try ServiceHive.ComponentReply(["counts": [true] as [any Sendable]]).decode(OptionalCount.self)
        }
        #expect(wrongReply?.code == 303)
    }
}
