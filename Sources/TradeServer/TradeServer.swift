#if Hummingbird
import HTTPTypes
import Hummingbird
import Logging
import ServiceHive
import ServiceHiveHummingbird
import ServiceHiveLifecycle
import TradeModule

/// The example server: ``TradeModule``'s components over HTTP, with a customer session per request.
///
/// | Route | Answers |
/// | --- | --- |
/// | `GET` or `POST /api/<component>/<command>` | the components of the request's hive, such as `trade/order` |
/// | `GET /me` | the request's customer, from the `X-Customer` header, `guest` without one |
/// | `GET /items/<item>` | the item's price for the request's customer, who has now viewed it |
/// | `GET /health` | `ok` when every module's health check passes, or `503` naming the checks that fail |
///
/// The server listens only once its modules are installed and the hive validated: `ModulesService.ready()` runs
/// before the server starts. When they fail to, the server never listens: the program logs why and exits with
/// status 1. On SIGTERM or SIGINT it stops accepting requests and finishes those it has, then the modules stop.
enum TradeServer {
    /// The request header that names the customer.
    static let customerHeader = HTTPField.Name("X-Customer")!

    /// The application, with its modules installed into `hive` when it runs.
    ///
    /// - Parameters:
    ///   - hive: A new hive, which the application's modules install into; a test passes `TestHiveTrait.current`.
    ///   - port: The port to listen on, at 127.0.0.1; 0 for any free port.
    ///   - logger: The application's logger.
    ///   - fault: A fault that makes the startup fail, for tests; `nil`, the default, for none.
    /// - Returns: The application, which `runServiceOrExit()` runs, or a test runs with `test(_:)`.
    static func application(
        hive: ServiceHive, port: Int = 8080, logger: Logger, fault: StartupFault? = nil
    ) -> some ApplicationProtocol {
        let modules = ModulesService(
            [TradeModule()] + (fault.map { [$0.module] } ?? []), in: hive,
            validation: .all { plan in plan.provide(CustomerSession.self, TradeModule.makeCustomerSession()) }
        )
        var app = Application(
            router: router(hive: hive),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "TradeServer"),
            services: [modules],  // the application's group stops the server first, then the modules
            logger: logger
        )
        app.beforeServerStarts { try await modules.ready() }
        return app
    }

    /// The routes, each with a hive per request that provides the request's customer session.
    static func router(hive: ServiceHive) -> Router<BasicHiveRequestContext> {
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(
            middleware: HiveMiddleware(hive) { request, _, provisions in
                let session = TradeModule.makeCustomerSession()
                session.signIn(customerId: request.headers[customerHeader] ?? "guest")
                provisions.provide(CustomerSession.self, session)
            })
        router.addComponents(at: "api")
        router.get("me") { _, context in
            let session = try context.resolve(CustomerSession.self)
            return session.customerId ?? "guest"
        }
        router.get("items/:item") { _, context in
            let item = try context.parameters.require("item")
            let session = try context.resolve(CustomerSession.self)
            guard let price = try context.resolve(PricingService.self).unitPrice(of: item) else {
                throw HTTPError(.notFound, message: "No item \(ServiceHive.printable(item, limit: 40)).")
            }
            session.view(itemId: item)
            return "\(price) for \(session.customerId ?? "guest"), who viewed \(session.recentlyViewed)"
        }
        router.get("health") { _, context in try await Health.response(from: context.hive) }
        return router
    }
}
#endif
