#if Hummingbird
import HTTPTypes
import Hummingbird
import Logging
import ServiceHive
import ServiceHiveComponents
import ServiceHiveHummingbird

/// Who calls: the `X-Caller` header, which the middleware provides to the request's hive.
struct Caller: Sendable {
    static let header = HTTPField.Name("X-Caller")!
    let name: String
}

/// A service of the application's hive built from the request's caller.
final class Greeter: Sendable {
    let caller: Caller
    init(caller: Caller) { self.caller = caller }
    var greeting: String { "hello, \(caller.name)" }
}

/// What a command throws that its caller may not see.
struct LedgerOffline: Error, CustomStringConvertible {
    var description: String { "the ledger at 10.0.0.7 is offline" }
}

/// What a command throws that its caller may see.
struct ItemSoldOut: PublicCommandError {
    let item: String
    var httpStatus: Int { 409 }
    var publicMessage: String { "\(item) is sold out." }
}

/// A public error whose status is not an error status.
struct Misnumbered: PublicCommandError {
    var httpStatus: Int { 200 }
    var publicMessage: String { "all is well" }
}

/// Not `Encodable`.
struct Opaque: Sendable {}

/// The input of the typed command `shop/ship`.
struct ShipRequest: Codable, Sendable {
    enum Speed: String, Codable, Sendable { case standard, express }
    var item: String
    var speed: Speed
}

struct ShipReply: Codable, Sendable {
    var item: String
    var days: Int
}

extension ServiceHive.Command where Input == ShipRequest, Output == ShipReply {
    static var ship: Self { .init(component: "shop", name: "ship") }
}

/// A hive with a `Greeter` and the `shop` component, whose commands cover every answer of the HTTP mount.
func shopHive() throws -> ServiceHive {
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

/// The router of the tests: the middleware, which provides the caller, and the components under `api`.
func shopRouter(_ hive: ServiceHive) -> Router<BasicHiveRequestContext> {
    let router = Router(context: BasicHiveRequestContext.self)
    router.add(
        middleware: HiveMiddleware(hive) { request, _, provisions in
            provisions.provide(Caller.self, Caller(name: request.headers[Caller.header] ?? "anonymous"))
        })
    router.addComponents(at: "api")
    return router
}

/// An application of ``shopRouter(_:)`` whose logs go to `logs`.
func shopApplication(_ hive: ServiceHive, logs: LogRecorder) -> some ApplicationProtocol {
    Application(router: shopRouter(hive), logger: logs.logger)
}
#endif
