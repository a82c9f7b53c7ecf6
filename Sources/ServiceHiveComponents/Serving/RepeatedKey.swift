import ServiceHive

/// The one rule for keys of components over HTTP: no key may repeat, in the query, in an object of the JSON body, or across the two.
///
/// A repeated key answers 400, with a message that names the key and where it repeats. A key is compared once decoded:
/// `it%65m` in a query, and `"it\u0065m"` in JSON, are `item`. Dropping one of two values silently, as a dictionary
/// decoded from the body would, never happens.
struct RepeatedKey: Hashable {
    /// Where a key repeats.
    enum Place: Hashable {
        /// Twice in the query.
        case query
        /// Twice in the body's top-level object: two values of one argument.
        case body
        /// Twice in an object nested in the value of the body's argument `argument`.
        case nested(in: String)
        /// Once in the query, and once in the body.
        case queryAndBody
    }

    /// The key, decoded.
    var key: String
    var place: Place

    /// The answer: 400, naming the key and the argument it is, or is in.
    var failure: ComponentHTTPFailure {
        let key = ComponentHTTPFailure.quoted(self.key)
        switch place {
        case .query:
            return ComponentHTTPFailure.badArgument(self.key, "The key \(key) appears more than once in the query.")
        case .body:
            return ComponentHTTPFailure.badArgument(self.key, "The key \(key) appears more than once in the JSON body.")
        case .nested(let argument):
            return ComponentHTTPFailure.badArgument(
                argument,
                "The key \(key) appears more than once in an object in the argument "
                    + "\(ComponentHTTPFailure.quoted(argument)) of the JSON body.")
        case .queryAndBody:
            return ComponentHTTPFailure.badArgument(
                self.key, "The key \(key) appears in both the query and the JSON body.")
        }
    }

    // MARK: - The query

    /// The first key that repeats in `query`, the percent-encoded query of a request, or that `bodyKeys` has too.
    ///
    /// The query is split as the hive splits it: items at `&`, up to a `#`; the key before the first `=`,
    /// percent-decoded. A key that does not decode, or an empty one, is left for the hive to refuse.
    ///
    /// - Parameters:
    ///   - query: The query, without its `?`; `nil` for none.
    ///   - bodyKeys: The top-level keys of the JSON body.
    /// - Returns: The first repeat in the query, else the first key in both, else `nil`.
    static func find(inQuery query: String?, bodyKeys: some Collection<String>) -> RepeatedKey? {
        guard let query else { return nil }
        // One key at a time, stopping at the first repeat: a query is at most `ServiceHive.maximumURLLength` bytes
        // by the time this runs, and nothing past the repeat is decoded.
        var seen: Set<String> = []
        var firstInBody: String?
        for item in query.utf8.prefix(while: { $0 != UInt8(ascii: "#") }).split(separator: UInt8(ascii: "&")) {
            guard let key = PercentDecoding.decoded(item.prefix { $0 != UInt8(ascii: "=") }), !key.isEmpty else {
                continue
            }
            guard seen.insert(key).inserted else { return RepeatedKey(key: key, place: .query) }
            if firstInBody == nil, bodyKeys.contains(key) { firstInBody = key }
        }
        // In the query's order, so that the same request names the same key every time.
        return firstInBody.map { RepeatedKey(key: $0, place: .queryAndBody) }
    }

    // MARK: - The JSON body

    /// An open array, or an open object with the keys it has so far.
    private enum Container {
        case array
        case object(keys: Set<String>)
    }

    /// The first key that repeats in an object of `json`, a JSON text that has decoded.
    ///
    /// It reads the text once, byte by byte, with a stack of the open containers, and never recurses, so no nesting
    /// runs it out of stack. On text that is not JSON it never traps, and what it returns means nothing.
    ///
    /// - Parameter json: The body's bytes.
    /// - Returns: The first repeat, in the order of the text, or `nil`.
    static func find(inJSON json: [UInt8]) -> RepeatedKey? {
        var open: [Container] = []
        var expectsKey = false  // the next string, if any, is the key of a member of the innermost object
        var argument = ""  // the top-level key whose value is being read
        var index = 0
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "{"):
                open.append(.object(keys: []))
                expectsKey = true
            case UInt8(ascii: "["):
                open.append(.array)
                expectsKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectsKey = false
            case UInt8(ascii: ","):
                if case .object = open.last { expectsKey = true }
            case UInt8(ascii: "\""):
                let end = endOfString(json, from: index + 1)
                if expectsKey, case .object(var keys) = open.last {
                    let key = decodedString(json[(index + 1)..<end])
                    guard keys.insert(key).inserted else {
                        return RepeatedKey(key: key, place: open.count == 1 ? .body : .nested(in: argument))
                    }
                    open[open.count - 1] = .object(keys: keys)
                    if open.count == 1 { argument = key }
                    expectsKey = false
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index of the quote that ends the string whose text starts at `start`, or the end of `json`.
    private static func endOfString(_ json: [UInt8], from start: Int) -> Int {
        var index = start
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return json.count
    }

    /// The text of a JSON string, between its quotes, with its escapes decoded. A malformed escape decodes to U+FFFD:
    /// the body has decoded as JSON already, so none is expected.
    private static func decodedString(_ text: ArraySlice<UInt8>) -> String {
        guard text.contains(UInt8(ascii: "\\")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        var scalars = String.UnicodeScalarView()
        func flush() {
            scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes.removeAll(keepingCapacity: true)
        }
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < text.endIndex else {
                bytes.append(byte)
                continue
            }
            let escape = text[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                flush()
                var unit = hexUnit(text, at: &index)
                if let high = unit, (0xD800...0xDBFF).contains(high), index + 1 < text.endIndex,
                    text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u")
                {
                    var after = index + 2
                    if let low = hexUnit(text, at: &after), (0xDC00...0xDFFF).contains(low) {
                        unit = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        index = after
                    }
                }
                scalars.append(unit.flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
            default: bytes.append(escape)  // `"`, `\` and `/` stand for themselves
            }
        }
        flush()
        return String(scalars)
    }

    /// The four hexadecimal digits at `index` as a number, moving `index` past them; `nil` when there are not four.
    private static func hexUnit(_ text: ArraySlice<UInt8>, at index: inout Int) -> UInt32? {
        guard index + 4 <= text.endIndex else { return nil }
        var unit: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = PercentDecoding.hexValue(text[index + offset]) else { return nil }
            unit = unit << 4 | UInt32(digit)
        }
        index += 4
        return unit
    }
}
