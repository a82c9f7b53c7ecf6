import ServiceHive

/// Runs `operation` in a task of its own and waits for it at most `limit`; when the limit passes first, cancels the
/// task and stops waiting, even if the task ignores cancellation and goes on.
///
/// For an operation that may hang where cancellation does not reach, such as HummingbirdTesting's wait for a server's
/// port: ``within(_:limit:_:)`` cancels the operation at the limit, then waits for it to end. The task left behind
/// holds what it captured until the process exits, so a hang costs the test its memory, never its end.
///
/// ```swift
/// let thrown = await #expect(throws: ServiceHiveError.self) {
///     try await withinAbandoning("the live test to end") {
///         try await app.unlessStartupFails { try await app.test(.live) { _ in } }
///     }
/// }
/// ```
///
/// The task inherits the caller's task-local values, as `Task { }` does, so Swift Testing attributes what it records
/// to the test.
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - limit: How long to wait.
///   - operation: What to wait for.
/// - Returns: What `operation` returned.
/// - Throws: ``TimedOut`` when `limit` passed first; what `operation` threw; `CancellationError` when the caller was
///   cancelled first.
public func withinAbandoning<T: Sendable>(
    _ what: String,
    limit: Duration = .seconds(20),
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let first = Locked<(outcome: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))
    /// Records `outcome` unless one came first, and hands it to the caller if it waits already.
    @Sendable func settle(_ outcome: Result<T, any Error>) {
        let waiter = first.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: outcome)
    }
    let work = Task {
        do {
            settle(.success(try await operation()))
        } catch {
            settle(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        settle(.failure(TimedOut(what: what, limit: limit)))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let settled = first.withLock { state -> Result<T, any Error>? in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let settled { continuation.resume(with: settled) }
        }
    } onCancel: {
        settle(.failure(CancellationError()))
    }
}
