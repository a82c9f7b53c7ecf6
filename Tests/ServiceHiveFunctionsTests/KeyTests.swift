import Foundation
import ServiceHive
import ServiceHiveFunctions
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Typed function keys")
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
    func wrongFormsDoNotCompile(statement: String, diagnostic: String) throws {
        let rightForm = try Compiler.typecheck(
            body: "try center.attach(Badge(), to: FunctionKey<Badge, Int>(\"test.count\"))")
        #expect(rightForm.succeeded, "the harness itself must compile the right form: \(rightForm.output)")
        let wrongForm = try Compiler.typecheck(body: statement)
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
    static func typecheck(body: String) throws -> (succeeded: Bool, output: String) {
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
        let log = folder.appending(path: "output.txt")
        let status = try run(
            swiftc!.path,
            arguments: [
                "-swift-version", "6", "-typecheck", "-I", modules!.path, "-module-cache-path",
                folder.appending(path: "cache").path, file.path,
            ],
            output: log.path)
        return (status == 0, contents(of: log.path))
    }

    /// Runs a program with its standard output and error in the file at `output`, and returns its exit status.
    ///
    /// With `posix_spawn` rather than Foundation's `Process`, which leaks a weak reference on Linux, which
    /// LeakSanitizer reports.
    private static func run(_ program: String, arguments: [String], output: String) throws -> Int32 {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CompilerUnavailable(status: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status >> 8) & 0xff  // WEXITSTATUS
        #else
        throw CompilerUnavailable(status: -1)
        #endif
    }

    /// The text of a file, read with `read(2)`: FoundationEssentials' file reading leaks its buffer on Linux, which
    /// LeakSanitizer reports.
    private static func contents(of path: String) -> String {
        #if canImport(Glibc)
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
        #else
        return ""
        #endif
    }

    struct CompilerUnavailable: Error {
        let status: Int32
    }
}
