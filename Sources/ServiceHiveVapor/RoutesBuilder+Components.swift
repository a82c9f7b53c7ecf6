#if Vapor
public import Logging
import ServiceHive
import ServiceHiveComponents
public import Vapor

extension RoutesBuilder {
    /// Serves the components of the request's hive over HTTP, on this group: `GET` or `POST
    /// /<group>/<component>/<command>`, with the arguments in the query, or in a JSON object in the body of a `POST`.
    ///
    /// ```swift
    /// app.grouped("api").hiveComponents()
    /// // GET /api/trade/order?item=hive-42&quantity=2
    /// // 200 {"item":"hive-42","number":1,"quantity":2,"total":2500}
    /// ```
    ///
    /// The rules are ServiceHiveComponents' `ServiceHive.respond(toComponentRequest:)`, the same as
    /// ServiceHiveHummingbird's mount, so a request gets the same answer on either framework: only commands declared
    /// `reachableByURL: true` run; no key may repeat in the query, in an object of the body, or across the two; the
    /// path and query are limited to `ServiceHive.maximumURLLength` bytes, checked first. Every failure answers with a
    /// status and `{"error":{"message":"…"}}`, written for whoever calls; the developer's text goes to the request's
    /// logger only, at `error` for a 5xx and at `clientErrorLogLevel` for a 4xx, with the fields
    /// `http.response.status_code`, `hive.error.code` and `hive.error`:
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
    /// Commands run in the request's hive, ``Vapor/Request/hive``, so they resolve what the request provides. Without
    /// ``Vapor/Application/useHive(_:modules:validation:provide:)`` every request answers 500, and the log says why.
    ///
    /// - Parameters:
    ///   - maximumBodySize: The largest body accepted, in bytes. By default, 64 KiB.
    ///   - clientErrorLogLevel: The level at which a failure that answers a 4xx is logged. By default, `debug`. A 5xx
    ///     is logged at `error`.
    public func hiveComponents(
        maximumBodySize: Int = ComponentHTTP.defaultMaximumBodySize, clientErrorLogLevel: Logger.Level = .debug
    ) {
        let responder = VaporComponentResponder(
            maximumBodySize: maximumBodySize, clientErrorLogLevel: clientErrorLogLevel)
        on(.GET, "**") { request in await responder.respond(to: request) }
        on(.POST, "**", body: .stream) { request in await responder.respond(to: request) }
    }
}

/// Answers the requests of the component routes.
struct VaporComponentResponder: Sendable {
    let maximumBodySize: Int
    let clientErrorLogLevel: Logger.Level

    func respond(to request: Request) async -> Response {
        let hive: ServiceHive
        do {
            hive = try request.hive
        } catch {
            let failure = ComponentHTTPFailure(
                statusCode: 500, message: "The server failed to run the command.", developerText: "\(error)")
            return answer(ComponentHTTPResponse(failure), to: request)
        }
        var body: [UInt8] = []
        if request.method == .POST {
            do {
                if let buffer = try await request.body.collect(max: maximumBodySize).get() {
                    // A body Vapor collected before the route, as VaporTesting's in-memory requests are, is not
                    // checked against the limit by `collect(max:)`.
                    guard buffer.readableBytes <= maximumBodySize else {
                        let failure = ComponentHTTPFailure.bodyTooLarge(maximumSize: maximumBodySize)
                        return answer(ComponentHTTPResponse(failure), to: request)
                    }
                    body = Array(buffer.readableBytesView)
                }
            } catch let error as any AbortError where error.status == .payloadTooLarge {
                let failure = ComponentHTTPFailure.bodyTooLarge(maximumSize: maximumBodySize)
                return answer(ComponentHTTPResponse(failure), to: request)
            } catch {
                return answer(ComponentHTTPResponse(ComponentHTTPFailure(error)), to: request)
            }
        }
        let response = await hive.respond(
            toComponentRequest: ComponentHTTPRequest(
                method: request.method.rawValue, path: Self.target(of: request), query: request.url.query,
                contentType: request.headers.first(name: .contentType), body: body))
        return answer(response, to: request)
    }

    /// The part of the request's path that the `**` of the route matched, as sent, percent-encoded: the path's
    /// segments after as many as the group's prefix has, with any empty segment and trailing `/` kept, so that the
    /// hive refuses them as the Hummingbird mount does.
    static func target(of request: Request) -> String {
        let path = request.url.path
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).count
        var prefix = segments - request.parameters.getCatchall().count
        var index = path.startIndex
        // Skip the prefix's segments, and the `/` before each.
        while prefix > 0, index < path.endIndex {
            while index < path.endIndex, path[index] == "/" { index = path.index(after: index) }
            while index < path.endIndex, path[index] != "/" { index = path.index(after: index) }
            prefix -= 1
        }
        if index < path.endIndex, path[index] == "/" { index = path.index(after: index) }
        return String(path[index...])
    }

    /// The response to send, after logging its failure if it has one.
    private func answer(_ response: ComponentHTTPResponse, to request: Request) -> Response {
        if let failure = response.failure {
            request.logger.log(
                level: failure.isServerError ? .error : clientErrorLogLevel,
                "\(failure.logMessage(method: request.method.rawValue, path: request.url.path))",
                metadata: failure.logMetadata.mapValues { .string($0) })
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: ComponentHTTP.contentType)
        return Response(
            status: HTTPResponseStatus(statusCode: response.statusCode), headers: headers,
            body: .init(buffer: ByteBuffer(bytes: response.body)))
    }
}
#endif
