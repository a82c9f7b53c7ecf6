import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a program ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it, such as SIGILL (4) for a Swift runtime trap.
    case signalled(Int32)

    /// `exit status 1`, or `signal 4`.
    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "signal \(signal)"
        }
    }
}

/// Runs the program at `path` with `arguments`, and `environment` added to the test's own, waits at most `limit` for
/// it to end, and returns how it ended and what it wrote to its standard output and error, together.
///
/// With `posix_spawn`, rather than Foundation's `Process`, which leaks a weak reference on Linux that LeakSanitizer
/// reports. `/bin/sh` sends the program's output to a file and replaces itself with the program (`exec`), so the
/// status is the program's own; the shell does the redirection because the file actions of `posix_spawn` have types
/// of their own on each operating system. The wait polls `waitpid` from the test's task, sleeping between polls, so that it blocks no thread; a
/// program still running at the limit is killed, and the wait throws ``TimedOut``.
///
/// ```swift
/// let (termination, output) = try await runProgram(swiftc, arguments: ["-typecheck", file])
/// #expect(termination == .exited(0), "\(output)")
/// ```
///
/// - Parameters:
///   - path: The program.
///   - arguments: Its arguments, without its name.
///   - environment: Variables to add to the test's own environment, or to change in it.
///   - limit: How long the program may run.
/// - Returns: How the program ended, and its output.
/// - Throws: ``TimedOut`` when the program ran past `limit`, and was killed; ``SpawnFailed`` when `posix_spawn` or
///   `waitpid` failed.
public func runProgram(
    _ path: String,
    arguments: [String] = [],
    environment: [String: String] = [:],
    limit: Duration = waitLimit
) async throws -> (termination: Termination, output: String) {
    let folder = FileManager.default.temporaryDirectory.appending(path: "program-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appending(path: "output.txt").path

    // What posix_spawn would refuse itself, refused before the shell runs: the shell would exit 127 instead.
    guard access(path, X_OK) == 0 else { throw SpawnFailed(path: path, error: errno) }
    let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    // `sh -c SCRIPT OUTPUT PROGRAM ARGUMENTS…`: the script sees the output file as $0 and the program as "$@".
    let shell = ["/bin/sh", "-c", #"exec "$@" > "$0" 2>&1"#, output, path] + arguments
    let argv = shell.map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var spawned = pid_t()
    let error = posix_spawn(&spawned, "/bin/sh", nil, nil, argv, envp)
    guard error == 0 else { throw SpawnFailed(path: path, error: error) }
    let pid = spawned

    let name = URL(filePath: path).lastPathComponent
    let status: Int32
    do {
        status = try await within("\(name) to end", limit: limit) {
            var status: Int32 = 0
            while true {
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid { return status }
                guard reaped == 0 || errno == EINTR else { throw SpawnFailed(path: path, error: errno) }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    } catch {
        // Killed, the program ends at once, and is reaped here unless the abandoned poll reaped it first.
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        throw error
    }
    let signal = status & 0x7f
    let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    return (termination, contents(of: output))
}

/// `posix_spawn` or `waitpid` failed.
public struct SpawnFailed: Error, CustomStringConvertible {
    /// The program.
    public let path: String
    /// The error number.
    public let error: Int32
    /// `could not run …: error 2`.
    public var description: String { "could not run \(path): error \(error)" }
}

/// The text of a file, read with `read(2)`: FoundationEssentials' file reading leaks its buffer on Linux, which
/// LeakSanitizer reports.
private func contents(of path: String) -> String {
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
}
