#if Vapor
import ServiceHive
import ServiceHiveVapor
import TradeModule
import Vapor

/// The example server on Vapor: ``TradeModule``'s components over HTTP, with a customer session per request, as
/// TradeServer serves them on Hummingbird.
///
/// | Route | Answers |
/// | --- | --- |
/// | `GET` or `POST /api/<component>/<command>` | the components of the request's hive, such as `trade/order` |
/// | `GET /me` | the request's customer, from the `X-Customer` header, `guest` without one |
/// | `GET /items/<item>` | the item's price for the request's customer, who has now viewed it |
/// | `GET /health` | `ok` when every module's health check passes, or `503` naming the checks that fail |
///
/// The server listens only once its modules are installed and the hive validated. When they fail to, it never
/// listens: the program logs why and exits with status 1. On SIGTERM or SIGINT it stops accepting requests and
/// finishes those it has, then the modules stop.
enum VaporTradeServer {
    /// The request header that names the customer.
    static let customerHeader = "X-Customer"

    /// Gives `app` its hive, with ``TradeModule`` and `extraModules` to install at boot, and its routes.
    ///
    /// - Parameters:
    ///   - app: The application.
    ///   - hive: A new hive, which the modules install into.
    ///   - extraModules: More modules, after TradeModule; a test passes one that fails.
    static func configure(_ app: Application, hive: ServiceHive, extraModules: [any ServiceModule] = []) throws {
        try app.useHive(
            hive, modules: [TradeModule()] + extraModules,
            validation: .all { plan in plan.provide(CustomerSession.self, TradeModule.makeCustomerSession()) }
        ) { request, provisions in
            let session = TradeModule.makeCustomerSession()
            session.signIn(customerId: request.headers.first(name: customerHeader) ?? "guest")
            provisions.provide(CustomerSession.self, session)
        }
        app.grouped("api").hiveComponents()
        app.get("me") { request in
            try request.hive.resolve(CustomerSession.self).customerId ?? "guest"
        }
        app.get("items", ":item") { request in
            let item = try request.parameters.require("item")
            let hive = try request.hive
            let session = try hive.resolve(CustomerSession.self)
            guard let price = try hive.resolve(PricingService.self).unitPrice(of: item) else {
                throw Abort(.notFound, reason: "No item \(String(item.prefix(40))).")
            }
            session.view(itemId: item)
            return "\(price) for \(session.customerId ?? "guest"), who viewed \(session.recentlyViewed)"
        }
        app.get("health") { request in try await health(from: request.hive) }
    }

    /// The answer of `GET /health`: `200 ok` when every check the modules contributed passes; otherwise
    /// `503 unhealthy: trade: …; …`, naming each check that failed and why, in the order the modules installed.
    static func health(from hive: ServiceHive) async throws -> Response {
        var failing: [String] = []
        for check in try hive.resolveAll(HealthCheck.self) {
            if case .unhealthy(let reason) = await check.check() { failing.append("\(check.name): \(reason)") }
        }
        let status: HTTPResponseStatus = failing.isEmpty ? .ok : .serviceUnavailable
        let text = failing.isEmpty ? "ok" : "unhealthy: " + failing.joined(separator: "; ")
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "text/plain; charset=utf-8")
        return Response(status: status, headers: headers, body: .init(string: text))
    }
}
#endif
