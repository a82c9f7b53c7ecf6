#if Hummingbird && canImport(Glibc)
import Foundation
import Glibc

/// How a process ended.
enum Termination: Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it, such as SIGILL (4) for a Swift runtime trap.
    case signalled(Int32)

    var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "signal \(signal)"
        }
    }
}

/// Runs the program at `path` with `environment` added to the test's own, waits at most `limit` for it to end, and
/// returns how it ended and what it wrote to its standard output and error, together.
///
/// With `posix_spawn`, rather than Foundation's `Process`, which leaks a weak reference on Linux that LeakSanitizer
/// reports. The wait polls `waitpid` from the test's task, sleeping between polls, so that it blocks no thread; a
/// program still running at the limit is killed, and the wait throws ``StillRunning``.
func runToEnd(
    _ path: String, environment: [String: String], limit: Duration = .seconds(60)
) async throws -> (termination: Termination, output: String) {
    let folder = FileManager.default.temporaryDirectory.appending(path: "spawn-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appending(path: "output.txt").path

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let argv = [strdup(path)] + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else { throw SpawnFailed(path: path, error: spawned) }

    var status: Int32 = 0
    /// Kills the program and reaps it: the wait ends at once, since the process is killed.
    func killAndReap() {
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
    let deadline = ContinuousClock.now + limit
    while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        guard reaped == 0 || errno == EINTR else { throw SpawnFailed(path: path, error: errno) }
        guard ContinuousClock.now < deadline else {
            killAndReap()
            throw StillRunning(path: path, limit: limit)
        }
        do {
            try await Task.sleep(for: .milliseconds(20))
        } catch {
            killAndReap()
            throw error
        }
    }
    let signal = status & 0x7f
    let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    let text = (try? String(contentsOf: URL(filePath: output), encoding: .utf8)) ?? ""
    return (termination, text)
}

/// `posix_spawn` or `waitpid` failed.
struct SpawnFailed: Error, CustomStringConvertible {
    let path: String
    let error: Int32
    var description: String { "could not run \(path): error \(error)" }
}
#endif

#if Hummingbird && canImport(Glibc)
/// A program ran longer than its limit, and was killed.
struct StillRunning: Error, CustomStringConvertible {
    let path: String
    let limit: Duration
    var description: String { "\(path) ran longer than \(limit), and was killed" }
}
#endif
