import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// A small trade component, registered over a service, for the component tests: `quote` (synchronous), `order`
// (synchronous, reachable by URL) and `track` (async, calls back twice).

protocol Prices: Sendable {
    func unitPrice(of item: String) -> Int?
}

struct FixedPrices: Prices {
    var prices = ["hive-42": 1_250, "honey-jar": 899]
    func unitPrice(of item: String) -> Int? { prices[item] }
}

struct UnknownItem: Error, CustomStringConvertible {
    let item: String
    var description: String { "there is no item \(item)" }
}

struct TradeQuoteRequest: Codable, Sendable, Equatable {
    var item: String
    var quantity: Int
}

struct TradeQuoteReply: Codable, Sendable, Equatable {
    var item: String
    var quantity: Int
    var total: Int
}

extension ServiceHive.Command where Input == TradeQuoteRequest, Output == TradeQuoteReply {
    static var tradeQuote: Self { .init(component: "trade", name: "quote") }
    static var tradeOrder: Self { .init(component: "trade", name: "order") }
}

/// Registers `Prices` and the `trade` component in `hive`.
func registerTrade(in hive: ServiceHive, orders: Locked<Int> = Locked(0)) throws {
    try hive.register(Prices.self) { FixedPrices() }
    try hive.registerComponent("trade") { component in
        component.command("quote") { call in
            let item: String = try call.argument("item")
            let quantity = try call.argument("quantity", as: Int.self)
            guard let price = try call.resolver.resolve(Prices.self).unitPrice(of: item) else {
                throw UnknownItem(item: item)
            }
            return ["item": item, "quantity": quantity, "total": price * quantity]
        }
        component.command("order", reachableByURL: true) { call in
            let item: String = try call.argument("item")
            let quantity = try call.argument("quantity", as: Int.self)
            guard let price = try call.resolver.resolve(Prices.self).unitPrice(of: item) else {
                throw UnknownItem(item: item)
            }
            return ["number": orders.increment(), "item": item, "quantity": quantity, "total": price * quantity]
        }
        component.command("track") { call in
            call.callback(["progress": 50])
            await Task.yield()
            call.callback(["progress": 100])
            return ["status": "delivered"]
        }
    }
}

/// A hive with the trade component.
func tradeComponentHive(orders: Locked<Int> = Locked(0)) throws -> ServiceHive {
    let hive = ServiceHive()
    try registerTrade(in: hive, orders: orders)
    return hive
}

/// The URL for `text`, recorded as an issue and `nil` when Foundation does not parse it.
func url(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
    guard let url = URL(string: text) else {
        Issue.record("Foundation does not parse \(text)", sourceLocation: sourceLocation)
        return nil
    }
    return url
}

/// A component's object with state, for the object forms.
final class Counter: Sendable {
    let id: Int
    private let count = Locked(0)
    init(id: Int = 0) { self.id = id }
    func next() -> Int { count.increment() }
}
