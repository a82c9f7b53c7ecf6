import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ServiceHive {
    // MARK: - Calls from outside the process

    /// Runs the command that an HTTP request names, for ServiceHiveHummingbird's mount: `target` is
    /// `component/command?query`, the part of the request's path after the mount's prefix, with its query, as sent.
    ///
    /// The rules are those of ``open(_:callback:)``: the target parses as the URL `http://component/command?query` does, with
    /// its limits, and only commands reachable by URL run. The query's values are text; `bodyArguments`, from a JSON
    /// body, keep their types, and a name in both refuses the request as a repeated key. Unlike ``open(_:callback:)``, the
    /// fallback never answers, so that a caller cannot tell a command that does not exist from one it may not run.
    ///
    /// - Parameters:
    ///   - target: `component/command`, then `?` and the query if there is one, percent-encoded.
    ///   - bodyArguments: Arguments from the request's body.
    /// - Returns: The command's reply.
    /// - Throws: What ``open(_:callback:)`` throws, with the ``ComponentError``s `componentNotFound` and
    ///   `commandNotFound` where a fallback would have answered.
    package func openRequest(
        _ target: String,
        bodyArguments: [String: any Sendable] = [:]
    ) async throws -> ComponentReply {
        let text = "http://" + target
        var request = try ComponentURL(parsing: text)
        for (name, value) in bodyArguments where request.arguments.updateValue(value, forKey: name) != nil {
            throw ComponentError.invalidURL(
                ComponentNames.printable(text, limit: 160),
                problem: .repeatedKey(ComponentNames.printable(name, limit: 80)))
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

    /// `text` with control characters escaped and shortened to `limit` characters, so that input from outside the
    /// process prints on one line, as the errors of ``open(_:callback:)`` quote it.
    package static func printable(_ text: String, limit: Int = 160) -> String {
        ComponentNames.printable(text, limit: limit)
    }
}
