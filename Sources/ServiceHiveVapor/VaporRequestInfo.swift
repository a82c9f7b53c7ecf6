#if Vapor
public import Vapor

/// What a request's hive provides of the request: its id, method, URL and headers, copied.
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
    /// The request's URL, as it came: path, query and fragment.
    public var url: URI
    /// The request's path, percent-encoded, without the query.
    ///
    /// Read from ``url`` on each read: Vapor decodes a URL's path anew each time, which would cost every request that
    /// reads its hive more than a microsecond if the info copied it.
    public var path: String { url.path }
    /// The request's headers.
    public var headers: HTTPHeaders

    /// Creates the info of a request.
    ///
    /// - Parameter request: The request.
    public init(_ request: Request) {
        id = request.id
        method = request.method
        url = request.url
        headers = request.headers
    }

    /// `GET /cart (request 4f1c…)`.
    public var description: String { "\(method.rawValue) \(path) (request \(id))" }
}
#endif
