import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of components over HTTP, for any server framework: the JSON of a request's body and of the replies.
///
/// ServiceHiveHummingbird and ServiceHiveVapor serve components with these rules, and so can a server on any other
/// framework. The whole exchange is one call, ``ServiceHive/ServiceHive/respond(toComponentRequest:)``; the pieces
/// are here for a server that reads the body its own way:
///
/// ```swift
/// let arguments = try ComponentHTTP.bodyArguments(body, contentType: contentType)
/// let reply = try await hive.openRequest(path: "trade/order", query: query, bodyArguments: arguments)
/// let json = try ComponentHTTP.encode(reply)  // 200, with ComponentHTTP.contentType
/// ```
public enum ComponentHTTP {
    /// The deepest nesting of arrays and objects a body may have: deep enough for any arguments, shallow enough that
    /// decoding never runs out of stack.
    public static let maximumDepth = 32

    /// The largest body the adapters accept by default, in bytes: 64 KiB.
    public static let defaultMaximumBodySize = 65_536

    /// The content type of every answer: `application/json; charset=utf-8`.
    public static let contentType = "application/json; charset=utf-8"

    /// The encoder of replies and errors: sorted keys, so that the same reply reads the same.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A command's reply as the JSON object a successful request answers, with sorted keys.
    ///
    /// - Parameter reply: The reply.
    /// - Returns: The UTF-8 JSON text.
    /// - Throws: A ``ComponentError`` when a value of the reply does not encode.
    public static func encode(_ reply: ServiceHive.ComponentReply) throws -> [UInt8] {
        Array(try encoder.encode(reply))
    }

    // MARK: - Arguments

    /// The arguments in the body of a `POST`: the members of a JSON object, none of whose objects repeats a key.
    ///
    /// An empty body has none. A body that is not JSON by its content type answers 415; one that nests deeper than
    /// ``maximumDepth`` levels, that is not a JSON object, or that repeats a key in any of its objects, 400. A value
    /// keeps its JSON type: `Bool`, `Int` when the number is whole and fits, else `Double`, `String`, arrays,
    /// objects, and `nil` for `null`.
    ///
    /// - Parameters:
    ///   - body: The body's bytes, collected up to the server's limit.
    ///   - contentType: The request's `Content-Type`, or `nil` when it has none: the body is then read as JSON.
    /// - Returns: The arguments, by name.
    /// - Throws: A ``ComponentHTTPFailure`` with the status to answer.
    public static func bodyArguments(_ body: [UInt8], contentType: String?) throws -> [String: any Sendable] {
        if let contentType, !isJSON(contentType) {
            throw ComponentHTTPFailure(
                statusCode: 415, message: "The body must be JSON, with the content type application/json.")
        }
        guard !body.isEmpty else { return [:] }
        guard depth(of: body) <= maximumDepth else {
            throw ComponentHTTPFailure(
                statusCode: 400, message: "The body nests arrays and objects deeper than \(maximumDepth) levels.")
        }
        guard let members = try? JSONDecoder().decode([String: Argument].self, from: Data(body)) else {
            throw ComponentHTTPFailure(
                statusCode: 400, message: "The body must be a JSON object, whose members are the arguments.")
        }
        // The decoder keeps one value of a key that repeats, and drops the other: the rules refuse the body instead.
        if let repeated = RepeatedKey.find(inJSON: body) { throw repeated.failure }
        return members.mapValues(\.value)
    }

    /// Whether a content type is JSON: `application/json`, or a `+json` type, with any parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.prefix { $0 != ";" }.filter { !$0.isWhitespace }.lowercased()
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// How deep arrays and objects nest in `bytes`, outside strings; a malformed text gives some depth, and fails to
    /// decode after.
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return deepest
    }

    /// One JSON value, as the arguments of a call hold it: `Bool`, `Int` when the number is whole and fits, else
    /// `Double`, `String`, `[any Sendable]`, `[String: any Sendable]`, or a `nil` for `null`.
    private struct Argument: Decodable {
        let value: any Sendable

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = String?.none
            } else if let bool = try? container.decode(Bool.self) {
                value = bool
            } else if let integer = try? container.decode(Int.self) {
                value = integer
            } else if let number = try? container.decode(Double.self) {
                value = number
            } else if let text = try? container.decode(String.self) {
                value = text
            } else if let elements = try? container.decode([Argument].self) {
                value = elements.map(\.value)
            } else {
                value = try container.decode([String: Argument].self).mapValues(\.value)
            }
        }
    }
}
