import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a request to components over HTTP answers when it fails: a status and a message for whoever called, and the
/// developer's text for the server's log.
///
/// Every server adapter answers failures with it, so that the same request gets the same answer on any framework:
///
/// ```swift
/// do {
///     let reply = try await hive.openRequest(path: "trade/order", query: "item=hive-42")
/// } catch {
///     let failure = ComponentHTTPFailure(error)
///     log(failure.logMessage(method: "GET", path: "/api/trade/order"), failure.logMetadata)
///     return (failure.statusCode, failure.body)  // 400 {"error":{"argument":"quantity","message":"…"}}
/// }
/// ```
///
/// The developer's text lists what is registered and suggests names; a caller from outside sees none of it, so that it
/// cannot probe what exists: a component or command that does not exist and one that is not reachable by URL answer
/// the same 404.
///
/// | Status | When |
/// | --- | --- |
/// | 404 | no such component or command, or a command that is not reachable by URL: the same body for all three |
/// | 400 | a missing or unconvertible argument, or a repeated key, named in ``argument``; a malformed query or body |
/// | 405 | a method other than `GET` and `POST` |
/// | 413 | a body larger than the server accepts |
/// | 414 | a path and query longer than ``ServiceHive/ServiceHive/maximumURLLength`` |
/// | 415 | a body that is not JSON |
/// | 500 | the command failed, its reply does not encode, or any other error, with a generic message |
/// | the error's | the command threw a ``PublicCommandError``, with its message |
public struct ComponentHTTPFailure: Error, Sendable, CustomStringConvertible {
    /// The HTTP status code, such as 404.
    public var statusCode: Int
    /// What the caller reads: written for whoever calls, naming nothing they should not know.
    public var message: String
    /// The argument at fault, for a 400 about one: at most 80 characters, control characters escaped.
    public var argument: String?
    /// The full text, for the server's log only.
    public var developerText: String
    /// The library's code of the error, such as 500 for a command that threw, whatever status it answers: a
    /// ``ComponentError/code`` or a `ServiceHiveError`'s code; `nil` for a request refused before the hive saw it.
    public var code: Int?

    /// The answer to a request that names no command the caller may run.
    static let notFound = ComponentHTTPFailure(
        statusCode: 404, message: "There is no command at this path.", developerText: "")

    /// The answer to a failure the caller may not know more of.
    static let generic = ComponentHTTPFailure(
        statusCode: 500, message: "The server failed to run the command.", developerText: "")

    /// Creates a failure of your own, such as a refusal of your server's.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - message: What the caller reads.
    ///   - argument: The argument at fault, if any; it is cut to 80 characters and its control characters escaped.
    ///   - developerText: The text for the log. When empty, the message.
    public init(statusCode: Int, message: String, argument: String? = nil, developerText: String = "") {
        self.statusCode = statusCode
        self.message = message
        self.argument = argument.map { ServiceHive.printable($0, limit: 80) }
        self.developerText = developerText.isEmpty ? message : developerText
    }

    /// The answer to `error`, which opening a request, reading its body, running its command or encoding its reply
    /// threw.
    ///
    /// A ``ComponentError`` answers by its case, as the table above says; a ``PublicCommandError`` that a command
    /// threw answers with its own status and message; a `ComponentHTTPFailure` answers as itself; anything else,
    /// a `ServiceHiveError` included, answers 500 with a generic message, and its text goes to ``developerText``.
    ///
    /// - Parameter error: What was thrown.
    public init(_ error: any Error) {
        switch error {
        case let failure as ComponentHTTPFailure:
            self = failure
            return
        case let error as ComponentError:
            self = Self.answer(to: error)
            code = error.code
        case let error as ServiceHiveError:
            self = .generic
            code = error.code
        default:
            self = .generic
        }
        developerText = Self.text(of: error, code: code)
    }

    /// The answer to a body larger than `maximumSize` bytes: 413.
    ///
    /// - Parameter maximumSize: The largest body the server accepts, in bytes.
    /// - Returns: The failure.
    public static func bodyTooLarge(maximumSize: Int) -> ComponentHTTPFailure {
        ComponentHTTPFailure(statusCode: 413, message: "The body is larger than \(maximumSize) bytes.")
    }

    /// The answer to a method other than `GET` and `POST`: 405.
    ///
    /// - Parameter method: The request's method.
    /// - Returns: The failure.
    public static func methodNotAllowed(_ method: String) -> ComponentHTTPFailure {
        ComponentHTTPFailure(
            statusCode: 405, message: "Commands answer GET and POST.",
            developerText: "\(ServiceHive.printable(method, limit: 40)) is not GET or POST.")
    }

    /// Whether the failure is the server's: a status of 500 or more. Adapters log it at `error`; a client's failure,
    /// at a level of the app's choosing.
    public var isServerError: Bool { statusCode >= 500 }

    /// `404 There is no command at this path.`
    public var description: String { "\(statusCode) \(message)" }

    /// The text of `error` for the log, without the `(code N)` that ends the description of the errors of
    /// components: the code has a field of its own, so that it never reads as the HTTP status.
    private static func text(of error: any Error, code: Int?) -> String {
        let text = "\(error)"
        guard let code, text.hasSuffix(" (code \(code))") else { return text }
        return String(text.dropLast(" (code \(code))".count))
    }

    // MARK: - Answers

    private static func answer(to error: ComponentError) -> ComponentHTTPFailure {
        switch error {
        case .componentNotFound, .commandNotFound, .notReachableByURL:
            return .notFound
        case .invalidURL(_, let problem):
            return answer(to: problem)
        case .missingArgument(_, _, let argument, _):
            return badArgument(argument, "The argument \(quoted(argument)) is missing.")
        case .argumentTypeMismatch(_, _, let argument, let expected, _):
            return badArgument(argument, "The argument \(quoted(argument)) is not a valid \(expected).")
        case .commandFailed(_, _, let underlying):
            return published(underlying) ?? .generic
        case .conversionFailed(_, _, _, let underlying):
            return published(underlying) ?? invalidArguments(underlying) ?? .generic
        default:
            return .generic
        }
    }

    private static func answer(to problem: ComponentError.URLProblem) -> ComponentHTTPFailure {
        switch problem {
        case .tooLong(_, let limit):
            return ComponentHTTPFailure(statusCode: 414, message: "The path and query are longer than \(limit) bytes.")
        case .notAComponentURL, .missingCommand, .extraPathSegments, .invalidName, .schemeNotAccepted:
            return .notFound
        case .repeatedKey(let key):
            // The rules find a repeated key before the hive does, but for a key they could not decode.
            return RepeatedKey(key: key, place: .query).failure
        case .invalidPercentEncoding, .emptyKey:
            return ComponentHTTPFailure(statusCode: 400, message: "The query is malformed: \(problem).")
        }
    }

    /// The answer the command's author chose, for an error marked public with an error status; one whose status is
    /// not one is a mistake, and is not published.
    private static func published(_ error: any Error) -> ComponentHTTPFailure? {
        guard let error = error as? any PublicCommandError, (400...599).contains(error.httpStatus) else { return nil }
        return ComponentHTTPFailure(statusCode: error.httpStatus, message: error.publicMessage)
    }

    /// A 400 for arguments that a typed command's input could not decode from, such as text that is no case of an
    /// enumeration.
    private static func invalidArguments(_ error: any Error) -> ComponentHTTPFailure? {
        guard let error = error as? DecodingError else { return nil }
        let path: [any CodingKey]
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            path = context.codingPath
        @unknown default:
            path = []
        }
        guard let first = path.first else {
            return ComponentHTTPFailure(statusCode: 400, message: "The arguments are not valid.")
        }
        return badArgument(first.stringValue, "The argument \(quoted(first.stringValue)) is not valid.")
    }

    /// A 400 about `argument`, which is bounded and escaped as the message quotes it.
    static func badArgument(_ argument: String, _ message: String) -> ComponentHTTPFailure {
        ComponentHTTPFailure(statusCode: 400, message: message, argument: argument)
    }

    static func quoted(_ text: String) -> String {
        "'\(ServiceHive.printable(text, limit: 80))'"
    }

    // MARK: - The log

    /// The line to log for the failure of a request: `GET /api/shop/order answered 409`, with the path cut and its
    /// control characters escaped.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The request's path, without the query.
    /// - Returns: The line.
    public func logMessage(method: String, path: String) -> String {
        "\(ServiceHive.printable(method, limit: 40)) \(ServiceHive.printable(path)) answered \(statusCode)"
    }

    /// The fields to log with ``logMessage(method:path:)``: `http.response.status_code`, the status; `hive.error`, the
    /// developer's text; and `hive.error.code`, the library's code, when there is one.
    public var logMetadata: [String: String] {
        var metadata = ["http.response.status_code": "\(statusCode)", "hive.error": developerText]
        if let code { metadata["hive.error.code"] = "\(code)" }
        return metadata
    }

    // MARK: - The body

    /// The response's body: `{"error":{"argument":"quantity","message":"…"}}`, UTF-8 JSON, as
    /// ``ComponentHTTP/contentType`` says.
    public var body: [UInt8] {
        struct Body: Encodable {
            struct Detail: Encodable {
                var message: String
                var argument: String?
            }
            var error: Detail
        }
        // Encoding two strings cannot fail; the fallback keeps this total all the same.
        let body = try? ComponentHTTP.encoder.encode(Body(error: .init(message: message, argument: argument)))
        return body.map { Array($0) } ?? Array(#"{"error":{}}"#.utf8)
    }
}
