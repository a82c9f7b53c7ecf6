#if Hummingbird
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import Logging
import ServiceHive
import ServiceHiveComponents

/// What a request to the component routes answers when it fails: a status and a message for whoever called, and the
/// developer's text for the log.
///
/// The developer's text lists what is registered and suggests names; a caller from outside sees none of it, so that it
/// cannot probe what exists: a component or command that does not exist and one that is not reachable by URL answer
/// the same.
struct ComponentFailure: Error {
    var status: HTTPResponse.Status
    /// What the caller reads.
    var message: String
    /// The argument at fault, for a 400 about one.
    var argument: String?
    /// The full text, for the server's log.
    var developerText: String
    /// The library's code of the error, such as 500 for a command that threw, whatever status it answers; `nil` for
    /// a request the mount refused before the hive saw it.
    var code: Int?

    /// The answer to a request that names no command the caller may run.
    static let notFound = ComponentFailure(
        status: .notFound, message: "There is no command at this path.", developerText: "")

    /// The answer to a failure the caller may not know more of.
    static let generic = ComponentFailure(
        status: .internalServerError, message: "The server failed to run the command.", developerText: "")

    init(status: HTTPResponse.Status, message: String, argument: String? = nil, developerText: String) {
        self.status = status
        self.message = message
        self.argument = argument
        self.developerText = developerText
    }

    /// The answer to `error`, which opening the request, reading its body, or encoding the reply threw.
    init(_ error: any Error) {
        switch error {
        case let failure as ComponentFailure:
            self = failure
            if developerText.isEmpty { developerText = message }
        case let error as ComponentError:
            self = Self.answer(to: error)
            code = error.code
        case let error as ServiceHiveError:
            self = .generic
            code = error.code
        default:
            self = .generic
        }
        if developerText.isEmpty { developerText = Self.text(of: error, code: code) }
    }

    /// The text of `error` for the log, without the `(code N)` that ends the description of the errors of
    /// components: the code has a field of its own, so that it never reads as the HTTP status.
    private static func text(of error: any Error, code: Int?) -> String {
        let text = "\(error)"
        guard let code, text.hasSuffix(" (code \(code))") else { return text }
        return String(text.dropLast(" (code \(code))".count))
    }

    private static func answer(to error: ComponentError) -> ComponentFailure {
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

    private static func answer(to problem: ComponentError.URLProblem) -> ComponentFailure {
        switch problem {
        case .tooLong(_, let limit):
            return ComponentFailure(
                status: .uriTooLong, message: "The path and query are longer than \(limit) bytes.", developerText: "")
        case .notAComponentURL, .missingCommand, .extraPathSegments, .invalidName, .schemeNotAccepted:
            return .notFound
        case .repeatedKey(let key):
            // The mount finds a repeated key before the hive does, but for a key it could not decode.
            return RepeatedKey(key: key, place: .query).failure
        case .invalidPercentEncoding, .emptyKey:
            return ComponentFailure(
                status: .badRequest, message: "The query is malformed: \(problem).", developerText: "")
        }
    }

    /// The answer the command's author chose, for an error marked public with an error status; one whose status is
    /// not one is a mistake, and is not published.
    private static func published(_ error: any Error) -> ComponentFailure? {
        guard let error = error as? any PublicCommandError, (400...599).contains(error.httpStatus) else { return nil }
        return ComponentFailure(
            status: .init(code: error.httpStatus), message: error.publicMessage, developerText: "")
    }

    /// A 400 for arguments that a typed command's input could not decode from, such as text that is no case of an
    /// enumeration.
    private static func invalidArguments(_ error: any Error) -> ComponentFailure? {
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
            return ComponentFailure(status: .badRequest, message: "The arguments are not valid.", developerText: "")
        }
        return badArgument(first.stringValue, "The argument \(quoted(first.stringValue)) is not valid.")
    }

    static func badArgument(_ argument: String, _ message: String) -> ComponentFailure {
        ComponentFailure(status: .badRequest, message: message, argument: argument, developerText: "")
    }

    static func quoted(_ text: String) -> String {
        "'\(ServiceHive.printable(text, limit: 80))'"
    }

    // MARK: - The log

    /// Logs the failure of `request`: a 5xx at `error`, a 4xx at `clientErrorLevel`, each with its fields.
    ///
    /// `GET /api/shop/order answered 409`, with `http.response.status_code`, the status; `hive.error.code`, the
    /// library's code, for an error of the hive; and `hive.error`, the developer's text.
    func log(_ request: Request, to logger: Logger, clientErrorLevel: Logger.Level) {
        var metadata: Logger.Metadata = [
            "http.response.status_code": .stringConvertible(status.code),
            "hive.error": .string(developerText),
        ]
        if let code { metadata["hive.error.code"] = .stringConvertible(code) }
        logger.log(
            level: status.code >= 500 ? .error : clientErrorLevel,
            "\(request.method) \(ServiceHive.printable(request.uri.path)) answered \(status.code)",
            metadata: metadata)
    }

    // MARK: - The response

    /// `{"error":{"argument":"quantity","message":"…"}}`.
    var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                var message: String
                var argument: String?
            }
            var error: Detail
        }
        // Encoding two strings cannot fail; the fallback keeps this total all the same.
        let body = (try? ComponentJSON.encoder.encode(Body(error: .init(message: message, argument: argument))))
        return ComponentJSON.response(status, body ?? Data(#"{"error":{}}"#.utf8))
    }
}
#endif
