import Foundation
import ServiceHive
import ServiceHiveFunctions
import Support
import Testing

@Suite("Typed function keys", .timeLimit(.minutes(5)))
@MainActor
struct KeyTests {
    @Test("a key is equal to another of the same name, prints its types, and knows where it was declared")
    func identity() {
        let key = FunctionKey<Badge, Int>.count
        #expect(key == FunctionKey<Badge, Int>("test.count"))
        #expect(key != .other)
        #expect(Set([key, .count, .other]).count == 2)
        #expect(key.description == "test.count (Badge, Int)")
        #expect(key.fileID == "ServiceHiveFunctionsTests/Fixtures.swift")
    }

    @Test("keys of the same name and different types are different functions")
    func sameNameDifferentTypes() throws {
        let hive = ServiceHive()
        let counts = FunctionKey<Badge, Int>("shared.name")
        let styles = FunctionKey<Panel, String>("shared.name")
        try hive.register(function: counts) { _ in countFunction() }
        try hive.register(function: styles) { _ in BusinessFunction { panel, style, _ in panel.style = style } }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        let panel = Panel()
        try center.attach(badge, to: counts)
        try center.attach(panel, to: styles)
        center.post(7, to: counts)
        center.post("dark", to: styles)
        center.deliverPending()
        #expect(badge.shown == [7])
        #expect(panel.style == "dark")
        #expect(hive.registrations.count == 2)
    }

    @Test("a key takes a control of its type or a subclass, and the right value type")
    func rightFormsCompile() throws {
        class Base {}
        final class Derived: Base {}
        let hive = ServiceHive()
        let key = FunctionKey<Base, String>("test.base")
        try hive.register(function: key) { _ in BusinessFunction { _, _, _ in } }
        let center = FunctionCenter(hive: hive)
        let derived = Derived()
        try center.attach(derived, to: key)
        center.post("value", to: key)
        #expect(center.controls(of: key).count == 1)
    }

    @Test(
        "the compiler refuses a control of the wrong type, a value of the wrong type, and a function for the wrong control",
        .enabled(if: Compiler.available, "needs swiftc and the built modules"),
        arguments: [
            (
                "try center.attach(Stepper(), to: FunctionKey<Badge, Int>(\"test.count\"))",
                "cannot convert value of type 'Stepper' to expected argument type 'Badge'"
            ),
            (
                "center.post(\"three\", to: FunctionKey<Badge, Int>(\"test.count\"))",
                "cannot convert value of type 'String' to expected argument type 'Int'"
            ),
            (
                "try hive.register(function: FunctionKey<Badge, Int>(\"test.count\")) { _ in "
                    + "BusinessFunction { (stepper: Stepper, count: Int, _) in } }",
                "to expected argument type '@MainActor @Sendable (Badge, Int, "
            ),
        ])
    func wrongFormsDoNotCompile(statement: String, diagnostic: String) async throws {
        let rightForm = try await Compiler.typecheck(
            body: "try center.attach(Badge(), to: FunctionKey<Badge, Int>(\"test.count\"))")
        #expect(rightForm.succeeded, "the harness itself must compile the right form: \(rightForm.output)")
        let wrongForm = try await Compiler.typecheck(body: statement)
        #expect(!wrongForm.succeeded)
        #expect(wrongForm.output.contains(diagnostic), "\(wrongForm.output)")
    }
}

/// Type-checks small programs against the modules this test binary was built with.
enum Compiler {
    /// The folder of the built modules, beside the test binary.
    static let modules: URL? = {
        var folder = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appending(path: "Modules")
            if FileManager.default.fileExists(
                atPath: candidate.appending(path: "ServiceHiveFunctions.swiftmodule").path)
            {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// `swiftc`, found on the `PATH`.
    static let swiftc: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(filePath: String($0)).appending(path: "swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var available: Bool {
        #if canImport(Glibc)
        modules != nil && swiftc != nil
        #else
        false
        #endif
    }

    /// Type-checks a function whose body is `body`, with a center, a hive, and the control types of the tests.
    ///
    /// The compiler runs as a process of its own, which the test waits for suspended, off the main actor, and at most
    /// three minutes: a type check takes seconds, and far longer on a loaded machine.
    static func typecheck(body: String) async throws -> (succeeded: Bool, output: String) {
        let source = """
            import ServiceHive
            import ServiceHiveFunctions
            @MainActor final class Badge {}
            @MainActor final class Stepper {}
            @MainActor func check(center: FunctionCenter, hive: ServiceHive) throws {
                \(body)
            }
            """
        let folder = FileManager.default.temporaryDirectory.appending(path: "functions-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "check.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let (termination, output) = try await runProgram(
            swiftc!.path,
            arguments: [
                "-swift-version", "6", "-typecheck", "-I", modules!.path, "-module-cache-path",
                folder.appending(path: "cache").path,
                // The C module that ServiceHive imports, which SwiftPM tells its own compiles where to find.
                "-Xcc",
                "-fmodule-map-file="
                    + modules!.deletingLastPathComponent()
                    .appending(path: "ServiceHiveSystem.build/module.modulemap").path,
                file.path,
            ],
            limit: .seconds(180))
        return (termination == .exited(0), output)
    }
}
