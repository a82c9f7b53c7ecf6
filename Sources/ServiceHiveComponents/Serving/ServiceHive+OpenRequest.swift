import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ServiceHive {
    // MARK: - Calls from outside the process

    /// Answers a request to components over HTTP: runs the command it names and returns the status and JSON body to
    /// send, with the rules every ServiceHive server adapter applies.
    ///
    /// A server on any framework serves components with this one call, in a route that matches `prefix/**` for
    /// `GET` and `POST`:
    ///
    /// ```swift
    /// let response = await hive.respond(
    ///     toComponentRequest: ComponentHTTPRequest(
    ///         method: "GET", path: "trade/order", query: "item=hive-42&quantity=2"))
    /// // 200 {"item":"hive-42","number":1,"quantity":2,"total":2500}
    /// if let failure = response.failure {
    ///     logger.log(failure.logMessage(method: "GET", path: "/api/trade/order"), failure.logMetadata)
    /// }
    /// ```
    ///
    /// In this order, it refuses: a path and query longer than ``maximumURLLength`` (414); a method other than
    /// `GET` and `POST` (405); a `POST` body that ``ComponentHTTP/bodyArguments(_:contentType:)`` refuses (415 or
    /// 400); a key repeated in the query, or in both the query and the body (400, naming the key in `argument`).
    /// It then opens the request with ``openRequest(path:query:bodyArguments:)``, and answers the reply as a JSON
    /// object, or the failure as ``ComponentHTTPFailure`` describes it. A body too large for the server is the
    /// server's to refuse, with ``ComponentHTTPFailure/bodyTooLarge(maximumSize:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status and body to send, and the failure to log if it failed. It never throws: every failure
    ///   is an answer.
    public func respond(toComponentRequest request: ComponentHTTPRequest) async -> ComponentHTTPResponse {
        do {
            try Self.checkLength(path: request.path, query: request.query)
            let arguments: [String: any Sendable]
            switch request.method.uppercased() {
            case "GET":
                arguments = [:]
            case "POST":
                arguments = try ComponentHTTP.bodyArguments(request.body, contentType: request.contentType)
            default:
                throw ComponentHTTPFailure.methodNotAllowed(request.method)
            }
            let reply = try await openRequest(path: request.path, query: request.query, bodyArguments: arguments)
            return ComponentHTTPResponse(reply: try ComponentHTTP.encode(reply))
        } catch {
            return ComponentHTTPResponse(ComponentHTTPFailure(error))
        }
    }

    /// Runs the command that a request from outside the process names, with the rules of a URL: only a command
    /// reachable by URL runs, and no key may repeat.
    ///
    /// ```swift
    /// let reply = try await hive.openRequest(path: "trade/order", query: "item=hive-42", bodyArguments: ["quantity": 2])
    /// ```
    ///
    /// `path` and `query` parse as the URL `http://path?query` does for ``open(_:callback:)``, with its limits, the
    /// length checked first. The query's values are text; `bodyArguments`, from a JSON body, keep their types. A key
    /// given twice in the query, or in both the query and the body, refuses the request, naming the key. Unlike
    /// ``open(_:callback:)``, the fallback never answers, so that a caller cannot tell a command that does not exist
    /// from one it may not run.
    ///
    /// ``call(_:_:arguments:callback:)-3f291`` is for callers inside the process: it runs any command, reachable by
    /// URL or not. At an HTTP boundary, use this, or ``respond(toComponentRequest:)``.
    ///
    /// - Parameters:
    ///   - path: `component/command`, percent-encoded: the part of the request's path after the mount's prefix.
    ///   - query: The query, percent-encoded, without its `?`; `nil` for none.
    ///   - bodyArguments: Arguments from the request's body.
    /// - Returns: The command's reply.
    /// - Throws: A ``ComponentHTTPFailure`` for a repeated key; otherwise what ``open(_:callback:)`` throws, with the
    ///   ``ComponentError``s `componentNotFound` and `commandNotFound` where a fallback would have answered. Turn any
    ///   of them into an answer with ``ComponentHTTPFailure/init(_:)``.
    public func openRequest(
        path: String,
        query: String? = nil,
        bodyArguments: [String: any Sendable] = [:]
    ) async throws -> ComponentReply {
        try Self.checkLength(path: path, query: query)
        if let repeated = RepeatedKey.find(inQuery: query, bodyKeys: bodyArguments.keys) { throw repeated.failure }
        let text = "http://" + (query.map { "\(path)?\($0)" } ?? path)
        var request = try ComponentURL(parsing: text)
        for (name, value) in bodyArguments where request.arguments.updateValue(value, forKey: name) != nil {
            throw RepeatedKey(key: name, place: .queryAndBody).failure
        }
        // A call with a URL runs only a command reachable by URL, so the call always has one.
        guard let url = URL(string: text) ?? URL(string: "http://\(request.component)/\(request.command)") else {
            throw ComponentError.invalidURL(ComponentNames.printable(text, limit: 160), problem: .notAComponentURL)
        }
        let call = ComponentCall(
            component: request.component, command: request.command, arguments: request.arguments, resolver: resolver,
            url: url, callback: nil)
        switch try route(call) {
        case .command(_, let command):
            return try await Self.run(command, call)
        case .fallback(_, let miss):
            throw miss
        }
    }

    /// Whether a caller from outside the process may run a command: it exists, as this hive sees it, and is declared
    /// `reachableByURL: true`.
    ///
    /// ```swift
    /// hive.isReachableByURL(component: "trade", command: "order")  // true
    /// hive.isReachableByURL(component: "trade", command: "audit")  // false: only code in the process calls it
    /// ```
    ///
    /// ``openRequest(path:query:bodyArguments:)`` and ``open(_:callback:)`` check this themselves; a route that
    /// calls a command by name with ``call(_:_:arguments:callback:)-3f291`` must check it first.
    ///
    /// - Parameters:
    ///   - component: The component's name.
    ///   - command: The command's name.
    /// - Returns: `true` when the command exists and is reachable by URL.
    public func isReachableByURL(component: String, command: String) -> Bool {
        guard let found = try? resolve(Component.self, name: component), let declared = found.commands[command],
            let registered = try? resolve(ComponentCommand.self, name: declared.key)
        else { return false }
        return found.isReachableByURL(registered)
    }

    /// Refuses a path and query longer than ``maximumURLLength``, as `http://path?query`: the first rule, so that an
    /// overlong query is never scanned.
    private static func checkLength(path: String, query: String?) throws(ComponentError) {
        let length = "http://".utf8.count + path.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0)
        guard length <= maximumURLLength else {
            let text = "http://" + String(path.prefix(160)) + (query.map { "?" + $0.prefix(160) } ?? "")
            throw ComponentError.invalidURL(
                ComponentNames.printable(text, limit: 160), problem: .tooLong(length: length, limit: maximumURLLength))
        }
    }

    /// `text` with control characters escaped and shortened to `limit` characters, so that input from outside the
    /// process prints on one line, as the errors of ``open(_:callback:)`` quote it.
    package static func printable(_ text: String, limit: Int = 160) -> String {
        ComponentNames.printable(text, limit: limit)
    }
}
