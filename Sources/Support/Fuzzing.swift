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
    private var round = 0

    /// A fuzzer whose sequence `seed` decides.
    ///
    /// - Parameters:
    ///   - seed: The seed.
    ///   - samples: Valid inputs to mutate; at least one.
    ///   - pieces: What mutations insert. By default, ``urlPieces``.
    public init(seed: UInt64, samples: [String], pieces: [String] = Fuzzer.urlPieces) {
        precondition(!samples.isEmpty, "a fuzzer needs a sample to mutate")
        random = SplitMix(seed: seed)
        self.samples = samples
        self.pieces = pieces
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
            switch random.next() % 3 {
            case 0: mutated.insert(contentsOf: pieces[pick(pieces.count)], at: at)
            case 1: if at < mutated.count { mutated.remove(at: at) }
            default:
                if at < mutated.count { mutated[at] = Character(UnicodeScalar(UInt8(random.next() % 128))) }
            }
        }
        return String(mutated)
    }

    private mutating func pick(_ count: Int) -> Int {
        Int(random.next() % UInt64(count))
    }
}
