#if Hummingbird
public import Hummingbird
public import ServiceHive

/// A Hummingbird request context that carries the request's own hive, which ``HiveMiddleware`` makes.
///
/// Conform your context to it with one stored property, or use ``BasicHiveRequestContext``:
///
/// ```swift
/// struct AppRequestContext: HiveRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var requestHive: ServiceHive?
///
///     init(source: ApplicationRequestContextSource) {
///         coreContext = .init(source: source)
///     }
/// }
/// ```
///
/// Handlers then resolve from the request's hive, which sees what the request provides, such as the caller, and
/// every service of the application's hive:
///
/// ```swift
/// router.get("cart") { request, context in
///     let cart = try context.resolve(Cart.self)  // built for this request's caller
///     return try cart.summary()
/// }
/// ```
///
/// A handler reaches the request's hive in these ways: `context.resolve(_:name:)` and `context.resolveAsync(_:name:)`
/// resolve from it; `context.hive` is the hive itself, for anything else a hive does; and ``requestHive`` is where
/// the middleware stores it, `nil` until the middleware runs. The first three throw
/// ``HiveRequestContextError/noRequestHive`` in a route that ``HiveMiddleware`` does not cover.
public protocol HiveRequestContext: RequestContext {
    /// The request's hive: a child of the application's hive, with what the request provides. ``HiveMiddleware``
    /// sets it; it is `nil` before, and in routes that the middleware does not cover.
    var requestHive: ServiceHive? { get set }
}

extension HiveRequestContext {
    /// The request's hive, which ``HiveMiddleware`` made.
    ///
    /// - Throws: ``HiveRequestContextError/noRequestHive`` when the middleware did not run for this request.
    public var hive: ServiceHive {
        get throws {
            guard let requestHive else { throw HiveRequestContextError.noRequestHive }
            return requestHive
        }
    }

    /// Resolves a service from the request's hive.
    ///
    /// ```swift
    /// let trade = try context.resolve(TradeService.self)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance, as `ServiceHive.resolve(_:name:)` returns it.
    /// - Throws: A `ServiceHiveError`, as `ServiceHive.resolve(_:name:)` throws;
    ///   ``HiveRequestContextError/noRequestHive`` when ``HiveMiddleware`` did not run for this request.
    public func resolve<Service>(_ service: Service.Type = Service.self, name: String? = nil) throws -> Service {
        try hive.resolve(Service.self, name: name)
    }

    /// Resolves a `Sendable` service from the request's hive; the twin of `resolve(_:name:)` that the
    /// compiler picks for a `Sendable` type, as `ServiceHive` has.
    @_documentation(visibility: internal)
    public func resolve<Service: Sendable>(_ service: Service.Type = Service.self, name: String? = nil) throws
        -> Service
    {
        try hive.resolve(Service.self, name: name)
    }

    /// Resolves a service whose factory may be `async` from the request's hive, awaiting it.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: The errors of `resolve(_:name:)`.
    public func resolveAsync<Service: Sendable>(_ service: Service.Type = Service.self, name: String? = nil)
        async throws -> Service
    {
        try await hive.resolveAsync(Service.self, name: name)
    }
}

/// A request context with a hive per request and nothing else: Hummingbird's `BasicRequestContext`, with
/// ``requestHive``.
///
/// ```swift
/// let router = Router(context: BasicHiveRequestContext.self)
/// router.add(middleware: HiveMiddleware(hive))
/// ```
public struct BasicHiveRequestContext: HiveRequestContext {
    /// Hummingbird's own values of the request: its logger, its route's parameters.
    public var coreContext: CoreRequestContextStorage
    /// The request's hive, which ``HiveMiddleware`` sets.
    public var requestHive: ServiceHive?

    /// Creates the context of a request, without a hive yet.
    ///
    /// - Parameter source: What Hummingbird knows of the request when it creates the context.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// The errors of a ``HiveRequestContext`` of its own.
public enum HiveRequestContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A handler read the request's hive, but ``HiveMiddleware`` did not run for the request.
    case noRequestHive

    /// The message, with how to fix it.
    public var description: String {
        switch self {
        case .noRequestHive:
            return "This request has no hive: HiveMiddleware did not run for it. To fix, add it to the router, or to "
                + "the group of this route, before the route: router.add(middleware: HiveMiddleware(hive))."
        }
    }
}
#endif
