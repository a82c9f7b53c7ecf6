#if Hummingbird
public import Hummingbird
import ServiceHive
import ServiceHiveLifecycle

extension ApplicationProtocol {
    /// Runs `operation`, such as a test of this application, and throws at once what kept the application's modules
    /// from starting, instead of waiting for a server that never listens.
    ///
    /// ```swift
    /// try await app.unlessStartupFails {
    ///     try await app.test(.live) { client in
    ///         let health = try await client.execute(uri: "/health", method: .get)
    ///         #expect(health.status == .ok)
    ///     }
    /// }
    /// ```
    ///
    /// HummingbirdTesting's `.live` and `.ahc(_:)` setups wait for the server's port before they run the test, with
    /// no time limit, and that wait does not end when its task is cancelled. When the modules fail to start, the
    /// server never listens, so `app.test(.live)` waits forever. Its `.router` setup needs no port, and throws the
    /// failure itself.
    ///
    /// This watches every `ModulesService` among the application's `services`. When one fails to start, it cancels
    /// `operation` and throws that service's error: a `ServiceHiveError.moduleFailed(module:stage:underlying:)`, a
    /// `ModulesServiceError.validationFailed(_:)`, or a `CancellationError` when the application was cancelled before
    /// the modules installed anything. An operation that does not end when cancelled, as the `.live` setup's wait for
    /// the port, is left suspended, holding what it captured, until the process exits. Otherwise this returns what
    /// `operation` returns, or throws what it throws.
    ///
    /// `operation` runs in a task of its own, which inherits the caller's task-local values, such as the overrides of
    /// ServiceHiveTesting's `.testHive` trait. Cancelling the caller cancels it, and ends the wait.
    ///
    /// - Parameter operation: What to run: typically `test(_:_:)` of HummingbirdTesting, on this application.
    /// - Returns: What `operation` returned.
    /// - Throws: What made a `ModulesService` of the application fail to start; otherwise what `operation` threw;
    ///   `CancellationError` when the caller was cancelled; ``HiveApplicationError/noModulesService(application:)``,
    ///   before running anything, when the application has no `ModulesService` among its services.
    public func unlessStartupFails<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let watched = services.compactMap { $0 as? ModulesService }
        guard !watched.isEmpty else { throw HiveApplicationError.noModulesService(application: "\(Self.self)") }
        let outcome = FirstOutcome<Value>()
        let work = Task {
            do {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let watchers = watched.map { modules in
            Task {
                do {
                    try await modules.ready()
                } catch {
                    // Once an outcome is settled, the watchers are cancelled, and what they throw then is dropped.
                    outcome.settle(.failure(error))
                }
            }
        }
        defer {
            work.cancel()
            for watcher in watchers { watcher.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }
}

/// The first of several outcomes, for one task to wait for: the others are dropped.
final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var outcome: Result<Value, any Error>?
        var waiter: CheckedContinuation<Value, any Error>?
    }

    /// Guards `outcome`, the first one settled, and `waiter`, the task that waits for it.
    private let state = Locked(State())

    /// Records `outcome` unless one came first, and hands it to the task that waits.
    func settle(_ outcome: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: outcome)
    }

    /// Waits for the first outcome; one task only may wait.
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled = state.withLock { state -> Result<Value, any Error>? in
                    if state.outcome == nil { state.waiter = continuation }
                    return state.outcome
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }
}
#endif
