import ServiceHive

/// Runs `operation` and waits for it at most `limit`, so that a hang fails the test instead of hanging it.
///
/// The operation races a sleep in a task group: whichever ends first wins, and the other is cancelled.
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - limit: How long to wait.
///   - operation: What to wait for. It must end when cancelled.
/// - Returns: What `operation` returned.
/// - Throws: ``TimedOut`` when `limit` passed first, or what `operation` threw.
@discardableResult
func within<T: Sendable>(
    _ what: String,
    limit: Duration = .seconds(20),
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { tasks in
        tasks.addTask { try await operation() }
        tasks.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { tasks.cancelAll() }
        guard case let value?? = try await tasks.next() else {
            throw TimedOut(what: what, limit: limit)
        }
        return value
    }
}

/// The error ``within(_:limit:_:)`` throws when what it waited for took too long.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let limit: Duration
    var description: String { "Waited \(limit) for \(what), in vain" }
}

/// Waits for `task` to finish and returns its value; cancelling the wait cancels the task, so that
/// ``within(_:limit:_:)`` can give up on it.
func value<T: Sendable>(of task: Task<T, any Error>) async throws -> T {
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}

/// Waits until `hive` lists `names` as its installed modules, looking every millisecond.
///
/// `install(_:)` records the modules as installed just after the last one started, so a test that saw the last
/// start in its journal waits here for the install to finish.
func waitUntilInstalled(_ names: [String], in hive: ServiceHive) async throws {
    try await within("the modules \(names) to be installed") {
        while hive.installedModules != names {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
