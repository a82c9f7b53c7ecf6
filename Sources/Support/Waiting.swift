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
public func within<T: Sendable>(
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
public struct TimedOut: Error, CustomStringConvertible {
    /// What the test waited for.
    public let what: String
    /// How long it waited.
    public let limit: Duration
    /// `Waited 20 seconds for …, in vain`.
    public var description: String { "Waited \(limit) for \(what), in vain" }
}

/// Waits for `task` to finish and returns its value; cancelling the wait cancels the task, so that
/// ``within(_:limit:_:)`` can give up on it.
public func value<T: Sendable>(of task: Task<T, any Error>) async throws -> T {
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}
