#if Hummingbird
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
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
        case let error as ComponentError:
            self = Self.answer(to: error)
        default:
            self = .generic
        }
        if developerText.isEmpty { developerText = "\(error)" }
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
        case .invalidPercentEncoding, .emptyKey, .repeatedKey:
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

    private static func badArgument(_ argument: String, _ message: String) -> ComponentFailure {
        ComponentFailure(status: .badRequest, message: message, argument: argument, developerText: "")
    }

    private static func quoted(_ text: String) -> String {
        "'\(ServiceHive.printable(text, limit: 80))'"
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
