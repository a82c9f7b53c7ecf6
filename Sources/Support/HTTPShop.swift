// The shop that the server adapters' tests serve: a component whose commands cover every answer of components over
// HTTP, and the table of requests that every adapter must answer the same.
import ServiceHive
import ServiceHiveComponents

/// Who calls: the `X-Caller` header, which the middleware provides to the request's hive.
public struct Caller: Sendable {
    /// The header that names the caller.
    public static let headerName = "X-Caller"
    public let name: String
    public init(name: String) { self.name = name }
}

/// A service of the application's hive built from the request's caller.
public final class Greeter: Sendable {
    public let caller: Caller
    public init(caller: Caller) { self.caller = caller }
    public var greeting: String { "hello, \(caller.name)" }
}

/// What a command throws that its caller may not see.
public struct LedgerOffline: Error, CustomStringConvertible {
    public var description: String { "the ledger at 10.0.0.7 is offline" }
}

/// What a command throws that its caller may see.
public struct ItemSoldOut: PublicCommandError {
    public let item: String
    public var httpStatus: Int { 409 }
    public var publicMessage: String { "\(item) is sold out." }
}

/// A public error whose status is not an error status.
public struct Misnumbered: PublicCommandError {
    public var httpStatus: Int { 200 }
    public var publicMessage: String { "all is well" }
}

/// Not `Encodable`.
public struct Opaque: Sendable {}

/// The input of the typed command `shop/ship`.
public struct ShipRequest: Codable, Sendable {
    public enum Speed: String, Codable, Sendable { case standard, express }
    public var item: String
    public var speed: Speed
}

public struct ShipReply: Codable, Sendable {
    public var item: String
    public var days: Int
}

extension ServiceHive.Command where Input == ShipRequest, Output == ShipReply {
    static var ship: Self { .init(component: "shop", name: "ship") }
}

/// A hive with a `Greeter` and the `shop` component, whose commands cover every answer of the HTTP mount.
public func shopHive() throws -> ServiceHive {
    let hive = ServiceHive()
    try hive.register(Greeter.self) { r in Greeter(caller: try r.resolve()) }
    try hive.registerComponent("shop") { component in
        component.command("echo", reachableByURL: true) { call in
            ["text": try call.argument("text", as: String.self), "n": try call.argument("n", as: Int?.self) ?? 0]
        }
        component.command("order", reachableByURL: true) { call in
            let item = try call.argument("item", as: String.self)
            let quantity = try call.argument("quantity", as: Int.self)
            guard item != "smoker" else { throw ItemSoldOut(item: item) }
            let line: [String: any Sendable] = ["item": item, "quantity": quantity]
            return [
                "item": item, "quantity": quantity, "gift": try call.argument("gift", as: Bool?.self) ?? false,
                "lines": [line] as [any Sendable],
            ]
        }
        component.command(.ship, reachableByURL: true) { request, _ in
            ShipReply(item: request.item, days: request.speed == .express ? 1 : 3)
        }
        component.command("greet", reachableByURL: true) { call in
            ["greeting": try call.resolver.resolve(Greeter.self).greeting]
        }
        component.command("audit") { _ in ["entries": 3] }  // not reachable by URL
        component.command("ledger", reachableByURL: true) { _ in throw LedgerOffline() }
        component.command("misnumbered", reachableByURL: true) { _ in throw Misnumbered() }
        component.command("opaque", reachableByURL: true) { _ in ["when": Opaque()] }
    }
    return hive
}
