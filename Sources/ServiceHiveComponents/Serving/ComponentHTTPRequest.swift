import ServiceHive

/// A request to components over HTTP, as any server framework reads it: what
/// ``ServiceHive/ServiceHive/respond(toComponentRequest:)`` answers.
///
/// ```swift
/// let request = ComponentHTTPRequest(
///     method: "POST", path: "trade/order", query: "gift=true",
///     contentType: "application/json", body: Array(#"{"item":"hive-42","quantity":2}"#.utf8))
/// let response = await hive.respond(toComponentRequest: request)
/// // response.statusCode == 200, response.body is the reply as a JSON object
/// ```
public struct ComponentHTTPRequest: Sendable {
    /// The method, such as `GET`. Only `GET` and `POST` run a command; `GET`'s body is ignored.
    public var method: String
    /// The part of the path after the mount's prefix, as sent, percent-encoded: `component/command`.
    public var path: String
    /// The query, as sent, percent-encoded, without its `?`; `nil` when the request has none.
    public var query: String?
    /// The `Content-Type` of the body, or `nil` when the request has none.
    public var contentType: String?
    /// The body, collected up to the server's limit; empty for none.
    public var body: [UInt8]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method, such as `GET`.
    ///   - path: The path after the mount's prefix, percent-encoded: `component/command`.
    ///   - query: The query, percent-encoded, without its `?`.
    ///   - contentType: The `Content-Type`, if any.
    ///   - body: The body's bytes.
    public init(method: String, path: String, query: String? = nil, contentType: String? = nil, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.contentType = contentType
        self.body = body
    }
}

/// The answer to a ``ComponentHTTPRequest``: a status and a JSON body, with the failure to log when there is one.
public struct ComponentHTTPResponse: Sendable {
    /// The HTTP status code: 200 with the command's reply, else the failure's.
    public var statusCode: Int
    /// The JSON body, UTF-8, of the content type ``ComponentHTTP/contentType``.
    public var body: [UInt8]
    /// Why the request failed, for the server's log: `nil` for a 200. Log a server error (``ComponentHTTPFailure/isServerError``)
    /// at `error`, and a client's at a level of the app's choosing.
    public var failure: ComponentHTTPFailure?

    /// The response of `failure`.
    ///
    /// - Parameter failure: The failure.
    public init(_ failure: ComponentHTTPFailure) {
        self.statusCode = failure.statusCode
        self.body = failure.body
        self.failure = failure
    }

    /// A 200 with `body`.
    init(reply body: [UInt8]) {
        self.statusCode = 200
        self.body = body
        self.failure = nil
    }
}
