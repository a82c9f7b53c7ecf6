import Foundation
import Testing

/// Keeps a time limit on every suite, so that a test that hangs where no wait of its own reaches fails at the limit
/// instead of hanging the run.
@Suite("Every suite has a time limit", .timeLimit(.minutes(5)))
struct SuiteTimeLimitTests {
    static let tests = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The `@Suite` attributes that start a line of a Swift source, each with its arguments, and the line it starts on.
    static func suites(in source: String) -> [(line: Int, attribute: String)] {
        let lines = source.components(separatedBy: "\n")
        return lines.indices.compactMap { start -> (line: Int, attribute: String)? in
            guard lines[start].trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") else { return nil }
            // An attribute's arguments fit in the lines that follow it: joining only those keeps the check linear in
            // the file, where joining the rest of the file for every suite took minutes under TSan and held a thread
            // of the cooperative pool all that time.
            let text = lines[start..<min(start + 40, lines.count)].joined(separator: "\n")
            let characters = Array(text.drop { $0 != "@" }.dropFirst("@Suite".count))
            guard characters.first == "(" else { return (start + 1, "@Suite") }
            // The arguments run to the parenthesis that closes the first, past the parentheses inside strings.
            var depth = 0
            var inString = false
            var index = 0
            while index < characters.count {
                let character = characters[index]
                if inString {
                    if character == "\\" { index += 1 } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "(" {
                    depth += 1
                } else if character == ")" {
                    depth -= 1
                    if depth == 0 { break }
                }
                index += 1
            }
            return (start + 1, "@Suite" + String(characters[..<min(index + 1, characters.count)]))
        }
    }

    /// Whether a suite's attribute has a `.timeLimit` trait, outside its strings.
    static func hasTimeLimit(_ attribute: String) -> Bool {
        attribute.replacing(#/"(?:\\.|[^"\\])*"/#, with: "\"\"").contains(".timeLimit(")
    }

    @Test("every @Suite under Tests has a .timeLimit trait, and every file of tests has a suite")
    func everySuiteHasATimeLimit() throws {
        guard let enumerator = FileManager.default.enumerator(at: Self.tests, includingPropertiesForKeys: nil) else {
            Issue.record("cannot list \(Self.tests.path)")
            return
        }
        var suites = 0
        var missing: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let source = try String(contentsOf: url, encoding: .utf8)
            let name = url.path.replacing(Self.tests.path + "/", with: "")
            let found = Self.suites(in: source)
            suites += found.count
            for (line, attribute) in found where !Self.hasTimeLimit(attribute) {
                missing.append("\(name):\(line): \(attribute.prefix(80))")
            }
            if source.contains("@Test"), found.isEmpty {
                missing.append("\(name): tests without a @Suite, and so without a time limit")
            }
        }
        #expect(suites > 100, "the suites were found: \(suites)")
        #expect(missing.isEmpty, "add .timeLimit(.minutes(5)) to: \(missing.joined(separator: "; "))")
    }

    @Test("the check reads a suite's arguments across lines and strings, and sees a suite without any")
    func readsSuites() {
        let suite = "@" + "Suite"  // so that no line of this file starts with the attribute but its own
        let source = """
            \(suite)("a (string) with \\"quotes\\"", .serialized,
                .timeLimit(.minutes(5)))
            struct A {}
            \(suite) struct B {}
            \(suite)(".timeLimit( in a name only") struct C {}
            // a comment on \(suite)(.timeLimit(.minutes(1)))
            """
        let found = Self.suites(in: source)
        #expect(found.map(\.line) == [1, 4, 5])
        #expect(found.map { Self.hasTimeLimit($0.attribute) } == [true, false, false])
    }
}
