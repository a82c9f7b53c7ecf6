import Foundation
import Testing

/// Keeps the code in the README and the DocC articles of every catalog the same as the code the tests compile.
///
/// A documentation block marked `<!-- snippet: NAME -->` must have every line, in order, in a test file's region
/// that starts with `// snippet: NAME` and ends with `// end-snippet`. The test region may add lines, for the
/// test's own scaffolding and assertions; an `import` line may sit anywhere in the test file.
@Suite("Documentation snippets", .timeLimit(.minutes(5)))
struct DocumentationSnippetTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One test case per document that has a snippet marker, so that a document whose snippets drift from their tests
    /// is named on its own.
    @Test("every snippet of a document is compiled by a test, line for line", arguments: documentsWithSnippets())
    func snippetsMatchTests(document: String) throws {
        let compiled = try Self.testRegions()
        let url = Self.root.appending(path: document)
        let markers = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<!-- snippet:") }
        let snippets = try Self.snippets(in: url)
        #expect(!snippets.isEmpty, "\(document) has snippet markers, but none was read")
        #expect(
            snippets.count == markers.count, "\(document): \(markers.count) markers, \(snippets.count) snippets read")
        for (name, lines) in snippets {
            guard !lines.isEmpty else {
                Issue.record("\(document): snippet \(name) has no code: a ```swift block must follow its marker")
                continue
            }
            guard let regions = compiled[name] else {
                Issue.record("\(document): snippet \(name) has no test region")
                continue
            }
            guard let region = regions.first, regions.count == 1 else {
                Issue.record(
                    "\(document): snippet \(name) has \(regions.count) test regions, which need names of their own")
                continue
            }
            var remaining = region.lines[...]
            for line in lines {
                if line.hasPrefix("import "), region.fileLines.contains(line) { continue }
                guard let index = remaining.firstIndex(of: line) else {
                    Issue.record("\(document): snippet \(name) has a line its test does not: \(line)")
                    break
                }
                remaining = remaining[(index + 1)...]
            }
        }
    }

    @Test("the README and the articles have snippets, and each test region's name is used once")
    func regionsAreUnique() throws {
        let documents = Self.documentsWithSnippets()
        #expect(documents.count >= 10, "the documents with snippets: \(documents)")
        #expect(documents.contains("README.md"))
        let snippets = try documents.flatMap { try Self.snippets(in: Self.root.appending(path: $0)) }
        #expect(snippets.count >= 12, "the README's and the articles' snippets: \(snippets.count)")
        for (name, regions) in try Self.testRegions() where regions.count > 1 {
            Issue.record("\(regions.count) test regions are named \(name)")
        }
    }

    // MARK: - Reading the files

    /// The README and every Markdown file of every catalog, as paths from the repository's root, sorted.
    static func documentationFiles() -> [String] {
        var files = ["README.md"]
        let catalogs = [
            "Sources/ServiceHive/ServiceHive.docc",
            "Sources/ServiceHiveComponents/ServiceHiveComponents.docc",
            "Sources/ServiceHiveFunctions/ServiceHiveFunctions.docc",
            "Sources/ServiceHiveLifecycle/ServiceHiveLifecycle.docc",
            "Sources/ServiceHiveHummingbird/ServiceHiveHummingbird.docc",
            "Sources/ServiceHiveVapor/ServiceHiveVapor.docc",
        ]
        for catalog in catalogs {
            let url = root.appending(path: catalog)
            guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in enumerator where file.pathExtension == "md" {
                guard file.path.hasPrefix(url.path + "/") else { continue }
                files.append(catalog + "/" + file.path.dropFirst(url.path.count + 1))
            }
        }
        return files.sorted()
    }

    /// The documents of ``documentationFiles()`` that mark a snippet, found by their text alone.
    static func documentsWithSnippets() -> [String] {
        documentationFiles().filter { document in
            let text = try? String(contentsOf: root.appending(path: document), encoding: .utf8)
            return text?.contains("<!-- snippet:") ?? true  // a document that cannot be read fails its test
        }
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

    /// The snippet regions of every Swift file under `Tests/`, by name: more than one when a name is used twice.
    static func testRegions() throws -> [String: [Region]] {
        var regions: [String: [Region]] = [:]
        let tests = root.appending(path: "Tests")
        guard let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else {
            return regions
        }
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let fileLines = Set(lines)
            var current: (name: String, lines: [String])?
            for line in lines {
                if line.hasPrefix("// snippet:") || line == "// end-snippet", let finished = current {
                    regions[finished.name, default: []].append(Region(lines: finished.lines, fileLines: fileLines))
                    current = nil
                }
                if line.hasPrefix("// snippet:") {
                    current = (line.dropFirst("// snippet:".count).trimmingCharacters(in: .whitespaces), [])
                } else if current != nil, !line.isEmpty {
                    current?.lines.append(line)
                }
            }
            if let unfinished = current {
                regions[unfinished.name, default: []].append(Region(lines: unfinished.lines, fileLines: fileLines))
            }
        }
        return regions
    }
}
