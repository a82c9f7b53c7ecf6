/// A small seeded generator, so that a randomized test can be repeated from its seed: the model tests, the fuzz
/// tests and the concurrency tests share it.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence `seed` decides.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Hostile text for the fuzz tests of everything that reads input from outside the process: half random bytes, half
/// valid samples mutated by a few insertions of pieces that parsers trip on, deletions and replacements.
///
/// ```swift
/// var fuzzer = Fuzzer(seed: 42, samples: ["shop://trade/order?item=hive-42&quantity=2"])
/// for _ in 0..<4_000 { check(fuzzer.next()) }
/// ```
public struct Fuzzer {
    /// The pieces a URL's parser trips on: escapes, separators, bytes that are not UTF-8, and more.
    public static let urlPieces = [
        "%", "%2F", "%2E", "/", "..", "?", "&", "=", "#", "%00", "%C3", "%FF", "+", ":", "@", "é", " ",
    ]

    private var random: SplitMix
    private let samples: [String]
    private let pieces: [String]
    private let repeatsKeys: Bool
    private var round = 0

    /// A fuzzer whose sequence `seed` decides.
    ///
    /// - Parameters:
    ///   - seed: The seed.
    ///   - samples: Valid inputs to mutate; at least one.
    ///   - pieces: What mutations insert. By default, ``urlPieces``.
    ///   - repeatingKeys: Whether a mutation may also give a key of the sample again, with ``repeatingKey(in:)``. Off
    ///     by default, which keeps the sequences of the fuzz tests that do not ask for it.
    public init(seed: UInt64, samples: [String], pieces: [String] = Fuzzer.urlPieces, repeatingKeys: Bool = false) {
        precondition(!samples.isEmpty, "a fuzzer needs a sample to mutate")
        random = SplitMix(seed: seed)
        self.samples = samples
        self.pieces = pieces
        repeatsKeys = repeatingKeys
    }

    /// The next hostile text: random bytes on even rounds, a mutated sample on odd ones.
    public mutating func next() -> String {
        defer { round += 1 }
        if round % 2 == 0 {
            let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var mutated = Array(samples[pick(samples.count)])
        for _ in 0...(random.next() % 4) {
            let at = pick(mutated.count + 1)
            switch random.next() % (repeatsKeys ? 4 : 3) {
            case 0: mutated.insert(contentsOf: pieces[pick(pieces.count)], at: at)
            case 1: if at < mutated.count { mutated.remove(at: at) }
            case 2:
                if at < mutated.count { mutated[at] = Character(UnicodeScalar(UInt8(random.next() % 128))) }
            default:
                if let repeated = repeatingKey(in: String(mutated)) { mutated = Array(repeated.text) }
            }
        }
        return String(mutated)
    }

    private mutating func pick(_ count: Int) -> Int {
        Int(random.next() % UInt64(count))
    }
}

// MARK: - Repeated keys

extension Fuzzer {
    /// `text` with one of its keys given a second time, and that key: a query's (`?item=1` gets `&item=…`), or a
    /// JSON object's (`{"item":1}` gets `"item":…,`); `nil` when `text` has no key.
    ///
    /// The repeat has a value of its own, and sometimes spells the key with an escape that decodes to the same text:
    /// `it%65m` in a query, `"it\u0065m"` in JSON. A text that starts with `{` is JSON, any other a URL.
    ///
    /// ```swift
    /// var fuzzer = Fuzzer(seed: 42, samples: ["x"])
    /// fuzzer.repeatingKey(in: "shop://shop/order?item=a&quantity=2")
    /// // ("shop://shop/order?item=a&quantity=2&item=…", "item"), or with "&it%65m=…", or the same for "quantity"
    /// ```
    ///
    /// - Parameter text: A URL with a query, or a JSON object.
    /// - Returns: The text with the repeat, and the key, as it decodes.
    public mutating func repeatingKey(in text: String) -> (text: String, key: String)? {
        let characters = Array(text)
        let value = random.next() % 100
        if characters.first == "{" {
            let keys = Self.jsonKeys(characters)
            guard !keys.isEmpty else { return nil }
            let key = keys[pick(keys.count)]
            let spelled = random.next() % 2 == 0 ? key : Self.escaped(key, at: pick(key.count)) { "\\u00\($0)" }
            var repeated = characters
            repeated.insert(contentsOf: "\"\(spelled)\":\(value),", at: 1)
            return (String(repeated), key)
        }
        let keys = Self.queryKeys(characters)
        guard !keys.isEmpty else { return nil }
        let key = keys[pick(keys.count)]
        let spelled = random.next() % 2 == 0 ? key : Self.escaped(key, at: pick(key.count)) { "%\($0)" }
        var repeated = characters
        let end = repeated.firstIndex(of: "#") ?? repeated.endIndex  // a repeat in the fragment would be none
        repeated.insert(contentsOf: "&\(spelled)=\(value)", at: end)
        return (String(repeated), key)
    }

    /// The keys of a query's items, as they are spelled, when none needs decoding: the text after `?` up to `#`.
    private static func queryKeys(_ text: [Character]) -> [String] {
        guard let question = text.firstIndex(of: "?") else { return [] }
        let end = text[question...].firstIndex(of: "#") ?? text.endIndex
        return text[(question + 1)..<end].split(separator: "&").compactMap { item in
            let key = String(item.prefix { $0 != "=" })
            return key.isEmpty || key.contains("%") || key.contains("+") ? nil : key
        }
    }

    /// The keys of the top-level object of a JSON text that need no decoding: a quoted text before a `:`, outside
    /// nested arrays and objects.
    private static func jsonKeys(_ text: [Character]) -> [String] {
        var keys: [String] = []
        var depth = 0
        var index = 0
        while index < text.count {
            switch text[index] {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case "\"":
                var close = index + 1
                while close < text.count, text[close] != "\"" { close += text[close] == "\\" ? 2 : 1 }
                let key = String(text[(index + 1)..<min(close, text.count)])
                if depth == 1, close + 1 < text.count, text[close + 1] == ":", !key.isEmpty, !key.contains("\\") {
                    keys.append(key)
                }
                index = close
            default: break
            }
            index += 1
        }
        return keys
    }

    /// `key` with its character at `offset`, if ASCII, spelled as two hexadecimal digits after `prefix`.
    private static func escaped(_ key: String, at offset: Int, _ prefix: (String) -> String) -> String {
        var characters = Array(key)
        guard let ascii = characters[offset].asciiValue else { return key }
        let hex = String(ascii, radix: 16, uppercase: true)
        characters.replaceSubrange(offset...offset, with: prefix(hex.count == 1 ? "0" + hex : hex))
        return String(characters)
    }
}
