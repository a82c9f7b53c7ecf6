import Foundation
import Testing

/// Keeps `ARCHITECTURE.md` true: every file it names exists, every function its path tables name is declared in the
/// file the table gives, every type it names is declared in the sources, and each path stays within the number of
/// files its heading promises. Also checks the absences the map states about the source tree.
@Suite("The architecture map", .timeLimit(.minutes(5)))
struct ArchitectureMapTests {
    static let root = DocumentationSnippetTests.root
    static let map = (try? String(contentsOf: root.appending(path: "ARCHITECTURE.md"), encoding: .utf8)) ?? ""
    /// The only sources that differ between operating systems, as ARCHITECTURE.md's absences say.
    static let platformFiles: Set = ["Sources/ServiceHive/Platform/StackBounds.swift"]

    @Test("the map exists, names the four paths, and every file it names exists")
    func filesExist() throws {
        try #require(!Self.map.isEmpty, "ARCHITECTURE.md is missing or empty")
        #expect(
            Self.pathTables().count == 4,
            "the map shows a cached singleton's, a Sendable service's, a transient's and an override's path")
        let files = Self.backticked().filter { $0.hasPrefix("Sources/") || $0.hasPrefix("Benchmarks/") }
        #expect(files.count >= 20, "the path tables alone name more files than \(files.count)")
        for file in Set(files) {
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appending(path: file).path), "\(file) does not exist")
        }
    }

    /// The files of each path table, at most as many as its heading says.
    @Test("each path runs in no more files than its heading promises")
    func pathsStayShort() throws {
        for table in Self.pathTables() {
            let files = Set(table.rows.map(\.file))
            #expect(
                files.count <= table.limit,
                "\(table.title): \(files.count) files, more than \(table.limit): \(files.sorted())")
            #expect(table.rows.count >= 8, "\(table.title) shows only \(table.rows.count) steps")
        }
    }

    @Test("every function of a path table is declared in the file the table gives, on the type it names")
    func functionsAreWhereTheMapSays() throws {
        for table in Self.pathTables() {
            for row in table.rows {
                let source = try String(contentsOf: Self.root.appending(path: row.file), encoding: .utf8)
                let parts = row.function.split(separator: ".").map(String.init)
                try #require(parts.count == 2, "\(table.title): '\(row.function)' is not Type.member")
                let (type, member) = (parts[0], parts[1])
                #expect(
                    source.contains(regex: #"(struct|class|enum|protocol|extension)\s+([A-Za-z]+\.)*"# + type + #"\b"#),
                    "\(row.file) neither declares nor extends \(type), which the map says \(row.function) is on")
                let declaration =
                    member == "init" || member == "subscript"
                    ? #"\b"# + member + #"\s*[<(]"# : #"\b(func|var|let|case)\s+"# + member + #"\b"#
                // A struct's memberwise initializer is declared by the struct.
                let isMemberwise = member == "init" && source.contains(regex: #"\bstruct\s+"# + type + #"\b"#)
                #expect(
                    source.contains(regex: declaration) || isMemberwise,
                    "\(row.file) does not declare \(member) (\(row.function))")
            }
        }
    }

    @Test("every type the map names is declared in the sources, and every library it names is a target")
    func typesExist() throws {
        // The names the sources declare, found in one pass of one expression over each file: an expression per name
        // per file took seconds, and under TSan held a thread of the cooperative pool for a minute.
        let declaration = try NSRegularExpression(
            pattern: #"\b(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        var declared = Set<String>()
        for file in try Self.swiftSources(under: "Sources") {
            let source = try String(contentsOf: file, encoding: .utf8)
            let whole = NSRange(source.startIndex..., in: source)
            for match in declaration.matches(in: source, range: whole) {
                if let name = Range(match.range(at: 1), in: source) { declared.insert(String(source[name])) }
            }
        }
        let names = Set(
            Self.backticked().filter { $0.range(of: #"^[A-Z][A-Za-z]+$"#, options: .regularExpression) != nil })
        #expect(names.count >= 20, "the map names only \(names.count) types and libraries")
        let manifest = try String(contentsOf: Self.root.appending(path: "Package.swift"), encoding: .utf8)
        for name in names {
            let isTarget = FileManager.default.fileExists(atPath: Self.root.appending(path: "Sources/\(name)").path)
            let isTrait = manifest.contains(".trait(name: \"\(name)\"") || manifest.contains("traits: [\"\(name)\"]")
            let isSuite = FileManager.default.fileExists(
                atPath: Self.root.appending(path: "Tests/DocumentationTests/\(name).swift").path)
            let isType = declared.contains(name)
            #expect(
                isTarget || isTrait || isSuite || isType,
                "the map names \(name), which is neither a target, a trait, a test suite nor a type of Sources/")
        }
    }

    // MARK: - The absences the map states

    @Test("outside the lines that choose an import, no source branches on the platform, but the stack bounds")
    func onePathOnEveryPlatform() throws {
        let platform = #"#(if|elseif)\s+.*(os\(|canImport\((Darwin|Glibc|Musl|Bionic|WinSDK|Android)\)|arch\()"#
        var branches = 0
        for file in try Self.swiftSources(under: "Sources") {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index].contains(regex: platform) else { continue }
                branches += 1
                // A branch that only chooses imports: every line up to its `#endif` is an import or another branch.
                var end = index + 1
                while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("#endif") {
                    end += 1
                }
                let body = lines[(index + 1)..<min(end, lines.count)].map { $0.trimmingCharacters(in: .whitespaces) }
                let choosesImports = body.allSatisfy { $0.isEmpty || $0.hasPrefix("import ") || $0.hasPrefix("#") }
                let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
                #expect(
                    choosesImports || Self.platformFiles.contains(path),
                    "\(path):\(index + 1) branches on the platform outside the lines that choose an import")
                index = end
            }
        }
        #expect(branches >= 2, "the check found none of the import branches it knows exist")
    }

    @Test("the core imports no Foundation and holds no component code")
    func coreAbsences() throws {
        let core = try Self.swiftSources(under: "Sources/ServiceHive")
        #expect(core.count >= 40)
        for file in core {
            let text = try String(contentsOf: file, encoding: .utf8)
            let path = file.lastPathComponent
            #expect(!text.contains(regex: #"(?m)^import\s+Foundation"#), "\(path) imports Foundation")
            #expect(
                !text.contains(regex: #"\bComponent[A-Z]\w*|\bregisterComponent\b"#), "\(path) holds component code")
        }
    }

    // MARK: - Reading the map

    struct PathTable {
        let title: String
        let limit: Int
        var rows: [(function: String, file: String)] = []
    }

    /// Every backticked span of the map.
    static func backticked() -> [String] {
        map.matches(of: /`([^`\n]+)`/).map { String($0.output.1) }
    }

    /// The tables under the headings that promise a number of files: "### A cached singleton (at most 5 files)".
    static func pathTables() -> [PathTable] {
        var tables: [PathTable] = []
        for line in map.split(separator: "\n") {
            if let heading = line.firstMatch(of: /^###\s+(.+)\(at most (\d+) files\)\s*$/) {
                tables.append(PathTable(title: String(heading.output.1), limit: Int(heading.output.2) ?? 0))
            } else if line.hasPrefix("### ") || line.hasPrefix("## ") {
                tables.append(PathTable(title: "", limit: -1))  // A section that is not a path.
            } else if let row = line.firstMatch(of: /^\|\s*\d+\s*\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|$/),
                !tables.isEmpty
            {
                tables[tables.count - 1].rows.append((String(row.output.1), String(row.output.2)))
            }
        }
        return tables.filter { $0.limit >= 0 }
    }

    static func swiftSources(under folder: String) throws -> [URL] {
        let directory = root.appending(path: folder)
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}

extension StringProtocol {
    fileprivate func contains(regex pattern: String) -> Bool {
        range(of: pattern, options: .regularExpression) != nil
    }
}
