import ServiceHive

/// The rules for component and command names, and the suggestions errors make for misspelled ones.
///
/// A name is 1 to 64 ASCII letters, digits, `-`, `_` or `.`, other than `.` and `..`. So a name never contains `/`,
/// which separates the component from the command in registrations and URLs, and needs no percent-encoding in a URL.
enum ComponentNames {
    static let maximumLength = 64

    /// Whether `name` is a valid component or command name.
    static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength, name != ".", name != ".." else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }

    /// The registration name of a component's command: `trade/quote`.
    static func key(_ component: String, _ command: String) -> String {
        component + "/" + command
    }

    // MARK: - Suggestions

    /// The candidate closest to `name`, when it is close enough to be a likely misspelling: at most one edit for
    /// names of up to four characters, two for longer ones. A swap of two neighbouring characters is one edit.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let typed = Array(name.lowercased().utf8.prefix(maximumLength * 2))
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (distance: Int, name: String)?
        for candidate in candidates.sorted() where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased().utf8))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (distance, candidate) }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    // MARK: - Printing untrusted text

    /// `text` on one line and at most about `limit` characters: control characters are escaped, and the middle of
    /// a long text is cut. For names and values that come from outside the app, such as a URL's.
    static func printable(_ text: String, limit: Int) -> String {
        var pieces: [String] = []
        var complete = true
        for scalar in text.unicodeScalars {
            guard pieces.count <= limit * 4 else {
                complete = false
                break
            }
            let isControl =
                scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
            pieces.append(isControl ? scalar.escaped(asASCII: true) : String(scalar))
        }
        guard pieces.count > limit || !complete else { return pieces.joined() }
        let half = (limit - 1) / 2
        let tail = complete ? pieces.suffix(half).joined() : ""
        return pieces.prefix(half).joined() + "…" + tail
    }
}
