#if Hummingbird
public import Hummingbird
import Logging
public import ServiceHive

/// A Hummingbird middleware that gives each request a hive of its own: a child of the application's hive, with what
/// the request provides.
///
/// ```swift
/// let router = Router(context: BasicHiveRequestContext.self)
/// router.add(middleware: HiveMiddleware(hive) { request, context, provisions in
///     provisions.provide(Caller.self, Caller(token: request.headers[.authorization]))
/// })
/// router.get("cart") { request, context in
///     try context.resolve(Cart.self).summary()  // built with this request's Caller
/// }
/// ```
///
/// For every request it makes `hive.child { … }`, stores it in the context's
/// ``HiveRequestContext/requestHive``, and passes the request on. The child provides:
///
/// - ``HiveRequestInfo``: the request's id, the one in Hummingbird's logs, and its method and path;
/// - `Logger`: the request's logger, which logs that id;
/// - what `provide` adds, such as the caller's identity, which an authentication middleware placed before this one
///   has put in the context.
///
/// Services that the application's hive registers with a factory that resolves one of these, such as a `Cart` that
/// needs the `Caller`, resolve from the request's hive with this request's values; the application's hive never keeps
/// an instance built from them. The child is released with the request. Making it costs under a microsecond in a loop
/// and about 3 µs of a server's CPU a request; the adapter's documentation gives the figures.
public struct HiveMiddleware<Context: HiveRequestContext>: RouterMiddleware {
    /// The application's hive, whose child each request gets.
    public let hive: ServiceHive

    private let provide: @Sendable (Request, Context, inout ServiceHive.Provisions) -> Void

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - hive: The application's hive.
    ///   - provide: Adds the request's own instances to its hive, from the request and from what earlier middleware
    ///     put in the context. By default, nothing more than the request's info and logger.
    public init(
        _ hive: ServiceHive,
        provide: @escaping @Sendable (Request, Context, inout ServiceHive.Provisions) -> Void = { _, _, _ in }
    ) {
        self.hive = hive
        self.provide = provide
    }

    /// Makes the request's hive, puts it in the context, and passes the request on.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context.
    ///   - next: The rest of the chain.
    /// - Returns: The response of the rest of the chain.
    /// - Throws: What the rest of the chain throws.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        // Not `context.id`, which traps when the logger lacks the id, as a context made by hand may.
        let id = context.logger[metadataKey: "hb.request.id"]?.description ?? ""
        context.requestHive = hive.child { provisions in
            provisions.provide(
                HiveRequestInfo.self, HiveRequestInfo(id: id, method: request.method, path: request.uri.path))
            provisions.provide(Logger.self, context.logger)
            provide(request, context, &provisions)
        }
        return try await next(request, context)
    }
}

/// What ``HiveMiddleware`` provides to the hive of every request: the request's id, method and path.
///
/// ```swift
/// try hive.register(AuditTrail.self) { r in AuditTrail(request: try r.resolve(HiveRequestInfo.self)) }
/// ```
public struct HiveRequestInfo: Sendable, Hashable, CustomStringConvertible {
    /// The request's id, as Hummingbird's logs give it in `hb.request.id`.
    public var id: String
    /// The request's method.
    public var method: HTTPRequest.Method
    /// The request's path, as sent: percent-encoded, without the query.
    public var path: String

    /// Creates the info of a request.
    ///
    /// - Parameters:
    ///   - id: The request's id.
    ///   - method: The request's method.
    ///   - path: The request's path.
    public init(id: String, method: HTTPRequest.Method, path: String) {
        self.id = id
        self.method = method
        self.path = path
    }

    /// `GET /cart (request 4f1c…)`.
    public var description: String { "\(method) \(path) (request \(id))" }
}
#endif
