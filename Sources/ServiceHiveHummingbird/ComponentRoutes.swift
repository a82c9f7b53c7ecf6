#if Hummingbird
public import Hummingbird
public import Logging
import ServiceHive
import ServiceHiveComponents

extension RouterMethods where Context: HiveRequestContext {
    /// Serves the components of the request's hive over HTTP: `GET` or `POST /<prefix>/<component>/<command>`, with
    /// the arguments in the query, or in a JSON object in the body of a `POST`.
    ///
    /// ```swift
    /// router.add(middleware: HiveMiddleware(hive))
    /// router.addComponents(at: "api")
    /// // GET /api/trade/order?item=hive-42&quantity=2
    /// // 200 {"item":"hive-42","number":1,"quantity":2,"total":2500}
    /// ```
    ///
    /// A request is opened as `hive.open(_:callback:)` opens a URL, with the same rules: only commands declared
    /// `reachableByURL: true` run; a query's values are text, which converts without loss to the type the command
    /// reads; and the same limits hold, on the length of the path and query, and on names. A JSON body's values keep
    /// their JSON types: numbers, booleans, strings, `null`, arrays and objects. No key may repeat: in the query, in
    /// an object of the body, or in both the query and the body. The reply is the command's
    /// `ServiceHive.ComponentReply`, encoded as a JSON object. The component fallback never answers, and what a
    /// command sends with `call.callback(_:)` is dropped.
    ///
    /// Every failure answers with a status and `{"error":{"message":"…"}}`, written for whoever calls; the
    /// developer's text, which lists the commands there are, goes to the request's logger only, at `error` for a 5xx
    /// and at `clientErrorLogLevel` for a 4xx, with the status and the library's error code in fields of their own:
    ///
    /// | Status | When |
    /// | --- | --- |
    /// | 404 | no such component or command, or a command that is not reachable by URL: the same body for all three |
    /// | 400 | a missing or unconvertible argument, or a repeated key, named in the body's `argument`; a malformed query or body |
    /// | 413 | a body larger than `maximumBodySize` |
    /// | 414 | a path and query longer than `ServiceHive.maximumURLLength` |
    /// | 415 | a body that is not JSON |
    /// | 500 | the command failed, or its reply does not encode, with a generic message |
    /// | the error's | the command threw a `PublicCommandError`, with its message |
    ///
    /// The request's hive is the one ``HiveMiddleware`` made, so commands resolve what the request provides. Without
    /// the middleware every request answers 500, and the log says to add it.
    ///
    /// - Parameters:
    ///   - prefix: The path under which the components are served, such as `api` or `v1/components`.
    ///   - maximumBodySize: The largest body accepted, in bytes. By default, 64 KiB.
    ///   - clientErrorLogLevel: The level at which a failure that answers a 4xx is logged. By default, `debug`: a
    ///     client's mistakes, or a sold-out item, are no news to whoever runs the server, and at a higher level a
    ///     busy server writes a line for each. A 5xx is logged at `error`.
    /// - Returns: This router or group, to add more routes to it.
    @discardableResult
    public func addComponents(
        at prefix: String, maximumBodySize: Int = 65_536, clientErrorLogLevel: Logger.Level = .debug
    ) -> Self {
        let responder = ComponentResponder<Context>(
            maximumBodySize: maximumBodySize, clientErrorLogLevel: clientErrorLogLevel)
        let path = RouterPath(prefix.split(separator: "/").map(String.init).joined(separator: "/") + "/**")
        on(path, method: .get) { request, context in await responder.respond(to: request, context: context) }
        on(path, method: .post) { request, context in await responder.respond(to: request, context: context) }
        return self
    }
}

/// Answers the requests of the component routes, with the rules of ServiceHiveComponents'
/// `ServiceHive.respond(toComponentRequest:)`.
struct ComponentResponder<Context: HiveRequestContext>: Sendable {
    let maximumBodySize: Int
    let clientErrorLogLevel: Logger.Level

    func respond(to request: Request, context: Context) async -> Response {
        guard let hive = context.requestHive else {
            let failure = ComponentHTTPFailure(
                statusCode: 500, message: "The server failed to run the command.",
                developerText: "\(HiveRequestContextError.noRequestHive)")
            return answer(ComponentHTTPResponse(failure), to: request, context: context)
        }
        // The path after the prefix, as sent, percent-encoded; the router has matched the prefix.
        let path = context.parameters.get(String(Parameters.recursiveCaptureKey)) ?? ""
        var body: [UInt8] = []
        if request.method == .post {
            var request = request
            do {
                body = Array(try await request.collectBody(upTo: maximumBodySize).readableBytesView)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                let failure = ComponentHTTPFailure.bodyTooLarge(maximumSize: maximumBodySize)
                return answer(ComponentHTTPResponse(failure), to: request, context: context)
            } catch {
                return answer(ComponentHTTPResponse(ComponentHTTPFailure(error)), to: request, context: context)
            }
        }
        let response = await hive.respond(
            toComponentRequest: ComponentHTTPRequest(
                method: request.method.rawValue, path: path, query: request.uri.query,
                contentType: request.headers[.contentType], body: body))
        return answer(response, to: request, context: context)
    }

    /// The response to send, after logging its failure if it has one.
    private func answer(_ response: ComponentHTTPResponse, to request: Request, context: Context) -> Response {
        if let failure = response.failure {
            context.logger.log(
                level: failure.isServerError ? .error : clientErrorLogLevel,
                "\(failure.logMessage(method: request.method.rawValue, path: request.uri.path))",
                metadata: failure.logMetadata.mapValues { .string($0) })
        }
        return Response(
            status: .init(code: response.statusCode),
            headers: [.contentType: ComponentHTTP.contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}
#endif
