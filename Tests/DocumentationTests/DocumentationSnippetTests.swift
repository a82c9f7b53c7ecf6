import Foundation
import Testing

/// Keeps the code in the README and the DocC articles of both catalogs the same as the code the tests compile.
///
/// A documentation block marked `<!-- snippet: NAME -->` must have every line, in order, in a test file's region
/// that starts with `// snippet: NAME` and ends with `// end-snippet`. The test region may add lines, for the
/// test's own scaffolding and assertions; an `import` line may sit anywhere in the test file.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("every documentation snippet is compiled by a test, line for line")
    func snippetsMatchTests() throws {
        let documents = try Self.documentationFiles()
        let compiled = try Self.testRegions()
        var checked = 0
        for document in documents {
            for (name, lines) in try Self.snippets(in: document) {
                guard let region = compiled[name] else {
                    Issue.record("\(document.lastPathComponent): snippet \(name) has no test region")
                    continue
                }
                var remaining = region.lines[...]
                for line in lines {
                    if line.hasPrefix("import "), region.fileLines.contains(line) { continue }
                    guard let index = remaining.firstIndex(of: line) else {
                        Issue.record(
                            "\(document.lastPathComponent): snippet \(name) has a line its test does not: \(line)")
                        break
                    }
                    remaining = remaining[(index + 1)...]
                }
                checked += 1
            }
        }
        #expect(checked >= 12, "the README's and the articles' snippets: \(checked) checked")
    }

    // MARK: - Reading the files

    static func documentationFiles() throws -> [URL] {
        var files = [root.appending(path: "README.md")]
        let catalogs = [
            "Sources/ServiceHive/ServiceHive.docc",
            "Sources/ServiceHiveFunctions/ServiceHiveFunctions.docc",
        ]
        for catalog in catalogs.map({ root.appending(path: $0) }) {
            guard let enumerator = FileManager.default.enumerator(at: catalog, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in enumerator where url.pathExtension == "md" { files.append(url) }
        }
        return files
    }

    /// The snippets of a Markdown file: name, and the trimmed non-empty lines of the fenced block after the marker.
    static func snippets(in file: URL) throws -> [(String, [String])] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var found: [(String, [String])] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- snippet:"), line.hasSuffix("-->") else { continue }
            let name = line.dropFirst("<!-- snippet:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
            while index < lines.count, !lines[index].hasPrefix("```") { index += 1 }
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                let code = lines[index].trimmingCharacters(in: .whitespaces)
                if !code.isEmpty { body.append(code) }
                index += 1
            }
            found.append((name, body))
        }
        return found
    }

    struct Region {
        var lines: [String]
        var fileLines: Set<String>
    }

    /// The snippet regions of every Swift file under `Tests/`.
    static func testRegions() throws -> [String: Region] {
        var regions: [String: Region] = [:]
        let tests = root.appending(path: "Tests")
        guard let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else {
            return regions
        }
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let fileLines = Set(lines)
            var current: String?
            for line in lines {
                if line.hasPrefix("// snippet:") {
                    current = line.dropFirst("// snippet:".count).trimmingCharacters(in: .whitespaces)
                    regions[current!] = Region(lines: [], fileLines: fileLines)
                } else if line == "// end-snippet" {
                    current = nil
                } else if let name = current, !line.isEmpty {
                    regions[name]?.lines.append(line)
                }
            }
        }
        return regions
    }
}
