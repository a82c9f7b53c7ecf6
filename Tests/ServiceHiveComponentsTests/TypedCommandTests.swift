import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// Typed wrappers over the weak-typed call: descriptors, direct conversion, and errors that name the field.

struct Address: Codable, Sendable, Equatable {
    var city: String
    var zip: Int
}

enum Speed: String, Codable, Sendable {
    case standard, express
}

struct Shipment: Codable, Sendable, Equatable {
    var address: Address
    var items: [String]
    var quantities: [Int]
    var speed: Speed
    var note: String?
    var insured: Bool
    var weight: Double
}

struct ShipmentReceipt: Codable, Sendable, Equatable {
    var shipment: Shipment
    var labels: Int
}

struct Empty: Codable, Sendable, Equatable {}

struct Status: Codable, Sendable, Equatable {
    var status: String
}

extension ServiceHive.Command where Input == Shipment, Output == ShipmentReceipt {
    static var ship: Self { .init(component: "shipping", name: "ship") }
}

extension ServiceHive.Command where Input == Empty, Output == Status {
    static var shippingStatus: Self { .init(component: "shipping", name: "status") }
}

@Suite("Components: typed commands over the weak-typed call", .timeLimit(.minutes(5)))
struct TypedCommandTests {
    let shipment = Shipment(
        address: Address(city: "Lyon", zip: 69_001), items: ["hive-42", "smoker"], quantities: [2, 1], speed: .express,
        note: nil, insured: true, weight: 2.5)

    @Test("a typed call converts the input to the arguments and the reply to the output")
    func typedCall() async throws {
        let hive = try tradeComponentHive()
        let quote = try await hive.call(.tradeQuote, TradeQuoteRequest(item: "hive-42", quantity: 2))
        #expect(quote == TradeQuoteReply(item: "hive-42", quantity: 2, total: 2_500))
        let order = try await hive.call(.tradeOrder, TradeQuoteRequest(item: "honey-jar", quantity: 1))
        #expect(order.total == 899)
    }

    @Test("a typed call and a weak-typed call see the same arguments, of the same types")
    func sameArguments() throws {
        let hive = ServiceHive()
        let seen = Locked<[[String: String]]>([])
        try hive.registerComponent("shipping") { component in
            component.command("ship") { call in
                let described = call.arguments.mapValues(canonical)
                seen.withLock { $0.append(described) }
                return ["shipment": call.arguments, "labels": 1]
            }
        }
        let receipt = try hive.call(.ship, shipment)
        #expect(receipt == ShipmentReceipt(shipment: shipment, labels: 1))
        _ = try hive.call(
            "shipping", "ship",
            arguments: [
                "address": ["city": "Lyon", "zip": 69_001] as [String: any Sendable],
                "items": ["hive-42", "smoker"] as [any Sendable], "quantities": [2, 1] as [any Sendable],
                "speed": "express", "insured": true, "weight": 2.5,
            ])
        #expect(seen.current.count == 2)
        #expect(seen.current.first == seen.current.last)
        #expect(seen.current.first?["speed"] == #"String "express""#)
        #expect(seen.current.first?["insured"] == "Bool true")
        #expect(seen.current.first?["weight"] == "Double 2.5")
        #expect(seen.current.first?["note"] == nil, "a nil optional is left out")
    }

    @Test("a typed command answers weak-typed callers, and a URL, whose values are text")
    func typedHandler() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("trade") { component in
            component.command(.tradeQuote) { request, _ in
                TradeQuoteReply(item: request.item, quantity: request.quantity, total: request.quantity * 100)
            }
            component.command(.tradeOrder, reachableByURL: true) { request, _ in
                await Task.yield()
                return TradeQuoteReply(item: request.item, quantity: request.quantity, total: 1)
            }
        }
        let weak = try await hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 3])
        #expect(try weak.value("total", as: Int.self) == 300)
        let fromURL = try await hive.open(url("shop://trade/order?item=hive-42&quantity=4")!)
        #expect(try fromURL.value("quantity", as: Int.self) == 4)
        let typed = try await hive.call(.tradeOrder, TradeQuoteRequest(item: "x", quantity: 1))
        #expect(typed.total == 1)

        let bad = await asyncError { _ = try await hive.open(url("shop://trade/order?item=hive-42&quantity=4.5")!) }
        guard case .argumentTypeMismatch("trade", "order", "quantity", "Int", #""4.5" (String)"#) = bad else {
            Issue.record("expected argumentTypeMismatch, got \(String(describing: bad))")
            return
        }
    }

    @Test("errors name the field: a nested value's path, a list element's index")
    func errorsNameTheField() throws {
        let hive = ServiceHive()
        try hive.registerComponent("shipping") { component in
            component.command(.ship) { shipment, _ in ShipmentReceipt(shipment: shipment, labels: 1) }
            component.command("broken") { _ in
                ["shipment": ["items": [String]()] as [String: any Sendable], "labels": "one"]
            }
        }
        var arguments: [String: any Sendable] = [
            "address": ["city": "Lyon"] as [String: any Sendable], "items": ["a"] as [any Sendable],
            "quantities": [1, "two"] as [any Sendable], "speed": "express", "insured": true, "weight": 1,
        ]
        let missing = error { _ = try hive.call("shipping", "ship", arguments: arguments) }
        guard case .missingArgument("shipping", "ship", "address.zip", ["city"]) = missing else {
            Issue.record("expected missingArgument of address.zip, got \(String(describing: missing))")
            return
        }
        arguments["address"] = ["city": "Lyon", "zip": "69001"] as [String: any Sendable]
        let mismatch = error { _ = try hive.call("shipping", "ship", arguments: arguments) }
        guard case .argumentTypeMismatch("shipping", "ship", "quantities[1]", "Int", #""two" (String)"#) = mismatch
        else {
            Issue.record("expected argumentTypeMismatch of quantities[1], got \(String(describing: mismatch))")
            return
        }
        arguments["quantities"] = [1, 2] as [any Sendable]
        arguments["speed"] = "overnight"
        let badEnum = error { _ = try hive.call("shipping", "ship", arguments: arguments) }
        #expect(badEnum?.code == 304, "an enum's own decoding refuses the value")

        let broken = ServiceHive.Command<Empty, ShipmentReceipt>(component: "shipping", name: "broken")
        let reply = error { _ = try hive.call(broken, Empty()) }
        guard case .missingReplyValue("shipping", "broken", "shipment.address", ["items"]) = reply else {
            Issue.record("expected missingReplyValue of shipment.address, got \(String(describing: reply))")
            return
        }
    }

    @Test("an input with no properties passes no arguments, and a call may decode its arguments itself")
    func emptyInputAndDecode() throws {
        let hive = ServiceHive()
        try hive.registerComponent("shipping") { component in
            component.command("status") { call in ["status": call.arguments.isEmpty ? "idle" : "busy"] }
            component.command("echo") { call in
                let shipment = try call.decode(Shipment.self)
                return ["city": shipment.address.city]
            }
        }
        #expect(try hive.call(.shippingStatus, Empty()) == Status(status: "idle"))
        let reply = try hive.call("shipping", "echo", arguments: try encoded(shipment))
        #expect(try reply.value("city", as: String.self) == "Lyon")
    }

    @Test("a typed implementation can replace one command in overrides")
    func typedOverride() throws {
        let hive = try tradeComponentHive()
        let quote = try hive.withOverrides {
            $0.registerCommand(.tradeQuote) { request, _ in
                TradeQuoteReply(item: request.item, quantity: request.quantity, total: 0)
            }
        } operation: {
            try hive.call(.tradeQuote, TradeQuoteRequest(item: "hive-42", quantity: 2))
        }
        #expect(quote.total == 0)
        #expect(try hive.call(.tradeQuote, TradeQuoteRequest(item: "hive-42", quantity: 2)).total == 2_500)
    }

    @Test("the encoder keeps nested containers written by hand, and super encoders")
    func handWrittenCoding() throws {
        struct Custom: Codable, Sendable, Equatable {
            var a: Int
            var b: [String]
            enum Keys: String, CodingKey { case a, nested, list }
            enum Nested: String, CodingKey { case value }
            init(a: Int, b: [String]) {
                self.a = a
                self.b = b
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Nested.self, forKey: .nested)
                try nested.encode(a, forKey: .value)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                for item in b { try list.encode(item) }
                try list.encodeNil()
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                a = try container.nestedContainer(keyedBy: Nested.self, forKey: .nested).decode(
                    Int.self, forKey: .value)
                var list = try container.nestedUnkeyedContainer(forKey: .list)
                var items: [String] = []
                while !list.isAtEnd {
                    if try list.decodeNil() { continue }
                    items.append(try list.decode(String.self))
                }
                b = items
            }
        }
        let hive = ServiceHive()
        let seen = Locked<[String: any Sendable]>([:])
        try hive.registerComponent("custom") { component in
            component.command("echo") { call in
                seen.withLock { $0 = call.arguments }
                return ServiceHive.ComponentReply(call.arguments)
            }
        }
        let command = ServiceHive.Command<Custom, Custom>(component: "custom", name: "echo")
        let value = Custom(a: 3, b: ["x", "y"])
        #expect(try hive.call(command, value) == value)
        #expect((seen.current["nested"] as? [String: any Sendable])?["value"] as? Int == 3)
        #expect((seen.current["list"] as? [any Sendable])?.count == 3)
    }

    /// `value` encoded as arguments, the way a typed call encodes its input.
    private func encoded<Value: Codable & Sendable>(_ value: Value) throws -> [String: any Sendable] {
        let hive = ServiceHive()
        let captured = Locked<[String: any Sendable]>([:])
        try hive.registerComponent("capture") { component in
            component.command("it") { call in
                captured.withLock { $0 = call.arguments }
                return [:]
            }
        }
        _ = try? hive.call(ServiceHive.Command<Value, Empty>(component: "capture", name: "it"), value)
        return captured.current
    }
}

/// `value` with its type, and nested dictionaries sorted by key, so that equal values print the same.
func canonical(_ value: any Sendable) -> String {
    if let dictionary = value as? [String: any Sendable] {
        return "["
            + dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \(canonical($0.value))" }
            .joined(separator: ", ") + "]"
    }
    if let list = value as? [any Sendable] { return "[" + list.map(canonical).joined(separator: ", ") + "]" }
    return "\(type(of: value)) \(String(reflecting: value))"
}
