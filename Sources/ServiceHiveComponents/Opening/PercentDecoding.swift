// How a URL's names, keys and values are percent-decoded: one rule, shared by `open(_:)` and the HTTP mount of
// ServiceHiveHummingbird, which must read a key in a request's query exactly as the hive reads it.

/// Percent-decoding as the hive reads a URL.
package enum PercentDecoding {
    /// `bytes` percent-decoded as UTF-8, or `nil` for an escape without two hexadecimal digits, or bytes that are not
    /// UTF-8. A `+` stays a plus sign.
    package static func decoded(_ bytes: some Collection<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard index != bytes.endIndex, let high = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            guard index != bytes.endIndex, let low = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            decoded.append(high << 4 | low)
        }
        var text = String.UnicodeScalarView()
        var parser = UTF8()
        var iterator = decoded.makeIterator()
        while true {
            switch parser.decode(&iterator) {
            case .scalarValue(let scalar): text.append(scalar)
            case .emptyInput: return String(text)
            case .error: return nil
            }
        }
    }

    /// The value of a hexadecimal digit, either case.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
