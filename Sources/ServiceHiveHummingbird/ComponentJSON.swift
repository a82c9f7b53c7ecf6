#if Hummingbird
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird

/// The JSON of the component routes: the arguments in a request's body, and the response.
enum ComponentJSON {
    /// The deepest nesting of arrays and objects a body may have: deep enough for any arguments, shallow enough that
    /// decoding never runs out of stack.
    static let maximumDepth = 32

    /// The encoder of replies and errors: sorted keys, so that the same reply reads the same.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A JSON response.
    static func response(_ status: HTTPResponse.Status, _ body: Data) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    // MARK: - Arguments

    /// The arguments in the body of a `POST`: the members of a JSON object, none of whose objects repeats a key. None
    /// for another method, or an empty body.
    static func arguments(of request: inout Request, maximumSize: Int) async throws -> [String: any Sendable] {
        guard request.method == .post else { return [:] }
        if let type = request.headers[.contentType], !isJSON(type) {
            throw refusal(.unsupportedMediaType, "The body must be JSON, with the content type application/json.")
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maximumSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw refusal(.contentTooLarge, "The body is larger than \(maximumSize) bytes.")
        }
        let bytes = Array(body.readableBytesView)
        guard !bytes.isEmpty else { return [:] }
        guard depth(of: bytes) <= maximumDepth else {
            throw refusal(.badRequest, "The body nests arrays and objects deeper than \(maximumDepth) levels.")
        }
        guard let members = try? JSONDecoder().decode([String: Argument].self, from: Data(bytes)) else {
            throw refusal(.badRequest, "The body must be a JSON object, whose members are the arguments.")
        }
        // The decoder keeps one value of a key that repeats, and drops the other: the mount refuses the body instead.
        if let repeated = RepeatedKey.find(inJSON: bytes) { throw repeated.failure }
        return members.mapValues(\.value)
    }

    /// Whether a content type is JSON: `application/json`, or a `+json` type, with any parameters.
    private static func isJSON(_ contentType: String) -> Bool {
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

    private static func refusal(_ status: HTTPResponse.Status, _ message: String) -> ComponentFailure {
        ComponentFailure(status: status, message: message, developerText: message)
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
#endif
