#if Hummingbird
import HTTPTypes
import Hummingbird
import Logging
import ServiceHive
import ServiceHiveComponents
import ServiceHiveHummingbird
import Support

extension Caller {
    /// The `X-Caller` header, which the middleware provides to the request's hive.
    static let header = HTTPField.Name(Caller.headerName)!
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
