import ServiceHive

/// A URL that calls a command, `scheme://component/command?key=value&…`, parsed as untrusted input.
///
/// The parser reads the URL's text byte by byte and never traps. It refuses, with
/// ``ComponentError/invalidURL(_:problem:)``: a URL longer than ``ServiceHive/maximumURLLength``; one without
/// `scheme://component`, or without a command; a path of more than one segment; a component or command name that,
/// percent-decoded, is not a valid name (so `%2F` and `..` never reach a lookup); invalid percent-encoding or UTF-8;
/// a query item with an empty key; and a key given twice. A `+` is a plus sign, not a space: encode spaces as `%20`.
/// The fragment is ignored.
struct ComponentURL {
    var scheme: String
    var component: String
    var command: String
    /// Every value is a `String`.
    var arguments: [String: any Sendable]

    init(parsing text: String) throws(ComponentError) {
        // Read in place, without copying the text: `open(_:)` of a typical URL must take under 3 µs.
        var text = text
        let parsed = text.withUTF8 { bytes in Result { () throws(ComponentError) in try Self.parse(bytes) } }
        self = try parsed.get()
    }

    private init(scheme: String, component: String, command: String, arguments: [String: any Sendable]) {
        self.scheme = scheme
        self.component = component
        self.command = command
        self.arguments = arguments
    }

    /// Parses the UTF-8 bytes of a URL's text.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ComponentError) -> ComponentURL {
        func refuse(_ problem: ComponentError.URLProblem) -> ComponentError {
            .invalidURL(ComponentNames.printable(String(decoding: bytes, as: UTF8.self), limit: 160), problem: problem)
        }
        guard bytes.count <= ServiceHive.maximumURLLength else {
            throw refuse(.tooLong(length: bytes.count, limit: ServiceHive.maximumURLLength))
        }

        // scheme "://"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), isScheme(bytes[..<colon]),
            bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { throw refuse(.notAComponentURL) }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self)

        // component
        var index = colon + 3
        let hostEnd = bytes[index...].firstIndex { endsHost($0) } ?? bytes.endIndex
        guard hostEnd > index else { throw refuse(.notAComponentURL) }
        let component = try name(bytes[index..<hostEnd], refuse)
        index = hostEnd

        // "/" command
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") else { throw refuse(.missingCommand) }
        let pathEnd =
            bytes[index...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = bytes[(index + 1)..<pathEnd]
        guard !path.isEmpty else { throw refuse(.missingCommand) }
        if path.contains(UInt8(ascii: "/")) {
            let segments = String(decoding: bytes[index..<pathEnd], as: UTF8.self)
            throw refuse(.extraPathSegments(ComponentNames.printable(segments, limit: 80)))
        }
        let command = try name(path, refuse)

        let arguments = try query(bytes, at: pathEnd, refuse)
        return ComponentURL(scheme: scheme, component: component, command: command, arguments: arguments)
    }

    /// The arguments of the `?` query that starts at `index`, if one does, up to the fragment.
    private static func query(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at index: Int,
        _ refuse: (ComponentError.URLProblem) -> ComponentError
    ) throws(ComponentError) -> [String: any Sendable] {
        var arguments: [String: any Sendable] = [:]
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "?") else { return arguments }
        let queryEnd = bytes[index...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var itemStart = index + 1
        while itemStart < queryEnd || (itemStart == queryEnd && bytes[itemStart - 1] == UInt8(ascii: "&")) {
            let itemEnd = bytes[itemStart..<queryEnd].firstIndex(of: UInt8(ascii: "&")) ?? queryEnd
            let item = bytes[itemStart..<itemEnd]
            let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
            let key = try decode(item[..<equals], refuse)
            guard !key.isEmpty else { throw refuse(.emptyKey) }
            let value = equals < item.endIndex ? try decode(item[(equals + 1)...], refuse) : ""
            guard arguments.updateValue(value, forKey: key) == nil else {
                throw refuse(.repeatedKey(ComponentNames.printable(key, limit: 80)))
            }
            itemStart = itemEnd + 1
        }
        return arguments
    }

    // MARK: - Parts

    /// Whether `bytes` is a scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    private static func endsHost(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// A component or command name: percent-decoded, then checked.
    private static func name(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>,
        _ refuse: (ComponentError.URLProblem) -> ComponentError
    ) throws(ComponentError) -> String {
        let name = try decode(bytes, refuse)
        guard ComponentNames.isValid(name) else {
            throw refuse(.invalidName(ComponentNames.printable(name, limit: 80)))
        }
        return name
    }

    /// `bytes` percent-decoded, as UTF-8.
    static func decode(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>,
        _ refuse: (ComponentError.URLProblem) -> ComponentError
    ) throws(ComponentError) -> String {
        guard bytes.contains(UInt8(ascii: "%")) || bytes.contains(where: { $0 >= 0x80 }) else {
            return String(decoding: bytes, as: UTF8.self)  // ASCII without escapes: nothing to decode or check.
        }
        guard let text = PercentDecoding.decoded(bytes) else {
            throw refuse(
                .invalidPercentEncoding(ComponentNames.printable(String(decoding: bytes, as: UTF8.self), limit: 80)))
        }
        return text
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
