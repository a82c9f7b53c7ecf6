#if Vapor
public import Vapor

/// What a request's hive provides of the request: its id, method, path and headers, copied.
///
/// ```swift
/// try hive.register(AuditTrail.self) { r in AuditTrail(request: try r.resolve(VaporRequestInfo.self)) }
/// ```
///
/// The request's hive provides these values, never the `Request` itself: the request keeps its hive, so a hive that
/// kept the request would keep both alive after the response. For the same reason, what the `provide` closure of
/// `useHive` adds must not hold the `Request`.
public struct VaporRequestInfo: Sendable, CustomStringConvertible {
    /// The request's id, as Vapor's logs give it in `request-id`.
    public var id: String
    /// The request's method.
    public var method: HTTPMethod
    /// The request's path, percent-encoded, without the query.
    public var path: String
    /// The request's headers.
    public var headers: HTTPHeaders

    /// Creates the info of a request.
    ///
    /// - Parameter request: The request.
    public init(_ request: Request) {
        id = request.id
        method = request.method
        path = request.url.path
        headers = request.headers
    }

    /// `GET /cart (request 4f1c…)`.
    public var description: String { "\(method.rawValue) \(path) (request \(id))" }
}
#endif
