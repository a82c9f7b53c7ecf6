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
    /// The rules are those of ``open(_:)``: the target parses as the URL `http://component/command?query` does, with
    /// its limits, and only commands reachable by URL run. The query's values are text; `bodyArguments`, from a JSON
    /// body, keep their types, and a name in both refuses the request as a repeated key. Unlike ``open(_:)``, the
    /// fallback never answers, so that a caller cannot tell a command that does not exist from one it may not run.
    ///
    /// - Parameters:
    ///   - target: `component/command`, then `?` and the query if there is one, percent-encoded.
    ///   - bodyArguments: Arguments from the request's body.
    /// - Returns: The command's reply.
    /// - Throws: A ``ServiceHiveError``, as ``open(_:)`` throws, with `componentNotFound` and `commandNotFound`
    ///   where a fallback would have answered.
    package func openRequest(
        _ target: String,
        bodyArguments: [String: any Sendable] = [:]
    ) async throws -> ComponentReply {
        let text = "http://" + target
        var request = try ComponentURL(parsing: text)
        for (name, value) in bodyArguments where request.arguments.updateValue(value, forKey: name) != nil {
            throw ServiceHiveError.invalidURL(
                ComponentNames.printable(text, limit: 160),
                problem: .repeatedKey(ComponentNames.printable(name, limit: 80)))
        }
        let call = ComponentCall(
            component: request.component, command: request.command, arguments: request.arguments, resolver: resolver,
            url: URL(string: text), callback: nil)
        return try await runFromOutside(call, fallback: false)
    }

    /// `text` with control characters escaped and shortened to `limit` characters, so that input from outside the
    /// process prints on one line, as the errors of ``open(_:)`` quote it.
    package static func printable(_ text: String, limit: Int = 160) -> String {
        ComponentNames.printable(text, limit: limit)
    }

    /// Runs a call from outside the process: only a command reachable by URL runs; else the fallback answers when
    /// `fallback` says so and there is one.
    nonisolated(nonsending) func runFromOutside(_ call: ComponentCall, fallback: Bool) async throws -> ComponentReply {
        switch try route(call) {
        case .command(let component, let command):
            guard component.isReachableByURL(command) else { throw unreachable(component, command) }
            return try await Self.run(command, call)
        case .fallback(let handler, let miss):
            guard fallback else { throw miss }
            return try Self.answer(call, with: handler, for: miss)
        }
    }
}
