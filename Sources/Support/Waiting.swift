import Dispatch
import ServiceHive

// Every wait in the tests is bounded: it ends by its time limit, whatever it waits for, so that a hang or a deadlock
// fails the test that has it instead of hanging the run. The rules the helpers keep:
//
// - `within` is the one time limit. The others (`onThreads`, `Gate.opened`, `eventually`, `runProgram`) wait through
//   it, or count down the same limit where they must block a thread of their own.
// - A wait never blocks a thread of the cooperative pool, which has one thread per core (two on a small machine), and
//   on which every task of every test runs: a task suspends, and a thread that must block is one the test made
//   (`onThreads`), or a task that must block runs on a thread of its own (`inTasksOnThreads`).
// - What a wait waits for runs at high priority, ahead of the queue of every test's jobs, so that a loaded pool
//   does not eat its time limit.
// - At the limit the wait stops, even if what it waits for goes on: it is cancelled and abandoned, and the test fails
//   with `TimedOut`, naming what it waited for.
// - Every suite has a `.timeLimit` trait, which DocumentationTests' SuiteTimeLimitTests checks: the backstop for a hang
//   that no wait of the test's own reaches, such as an await on the library that never returns.
// - Threads record nothing: Swift Testing attributes an issue to a test only from that test's task or its child
//   tasks. A thread returns what it saw, and the test checks it after `onThreads` has joined them.

/// The queue on which waits' timers fire and gates tell their waiters, a serial queue of its own: Dispatch gives such a
/// queue a thread even while every thread of the cooperative pool is busy, where a global queue's work waits behind the
/// pool's queue of every test's jobs, and a wait would run out its limit before it heard what it waited for.
let waitEvents = DispatchQueue(label: "Support.waitEvents")

/// How long a wait waits unless the test says otherwise: far longer than anything the tests wait for takes on a loaded
/// two-core machine under a sanitizer, and short enough that a hang ends the test, not the run.
public let waitLimit = Duration.seconds(120)

/// Runs `operation` in a task of its own and waits for it at most `limit`, so that a hang fails the test instead of
/// hanging it.
///
/// When the limit passes first, the wait cancels the task and stops waiting at once, even if the task ignores
/// cancellation and goes on: a hang where cancellation does not reach, such as a lock that is never released or a
/// continuation that is never resumed, costs the test what the task holds, never its end. The timer is a Dispatch
/// timer, not a task, so it fires on time even while the cooperative pool is busy.
///
/// ```swift
/// let identities = try await within("a hundred resolves") {
///     try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in … }
/// }
/// ```
///
/// The task inherits the caller's task-local values, as `Task { }` does, so that Swift Testing attributes what it
/// records to the test.
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - limit: How long to wait.
///   - operation: What to wait for.
/// - Returns: What `operation` returned.
/// - Throws: ``TimedOut`` when `limit` passed first; what `operation` threw; `CancellationError` when the caller was
///   cancelled first.
@discardableResult
public func within<T: Sendable>(
    _ what: String,
    limit: Duration = waitLimit,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    // The first outcome, kept only until the caller has it, so that the timer, which lives to its deadline, holds
    // nothing the operation returned.
    let first = Locked<(settled: Bool, outcome: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>(
        (false, nil, nil))
    /// Hands `outcome` to the caller, now if it waits already or when it does, unless an outcome came first.
    @Sendable func settle(_ outcome: Result<T, any Error>) {
        let waiter = first.withLock { state -> CheckedContinuation<T, any Error>? in
            guard !state.settled else { return nil }
            state.settled = true
            guard let waiter = state.waiter else {
                state.outcome = outcome
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(with: outcome)
    }
    // At high priority: Swift Testing starts every test at once, so the cooperative pool's queue holds hundreds of
    // jobs, and under a sanitizer on a loaded machine it takes minutes to drain. The operation, and the child tasks
    // it makes, which inherit its priority, run ahead of that queue, so the limit measures the operation, not the
    // queue. A task the operation awaits is raised to its priority too.
    let work = Task(priority: .high) {
        do {
            settle(.success(try await operation()))
        } catch {
            settle(.failure(error))
        }
    }
    let timer = DispatchWorkItem { settle(.failure(TimedOut(what: what, limit: limit))) }
    waitEvents.asyncAfter(deadline: .now() + limit.timeInterval, execute: timer)
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let settled = first.withLock { state -> Result<T, any Error>? in
                guard let outcome = state.outcome else {
                    state.waiter = continuation
                    return nil
                }
                state.outcome = nil
                return outcome
            }
            if let settled { continuation.resume(with: settled) }
        }
    } onCancel: {
        settle(.failure(CancellationError()))
    }
}

/// The error a wait throws when what it waited for took longer than its limit.
public struct TimedOut: Error, CustomStringConvertible {
    /// What the test waited for.
    public let what: String
    /// How long it waited.
    public let limit: Duration
    /// The error for a wait for `what` that lasted `limit`.
    public init(what: String, limit: Duration) {
        self.what = what
        self.limit = limit
    }

    /// `Waited 120 seconds for …, in vain`.
    public var description: String { "Waited \(limit) for \(what), in vain" }
}

/// Waits for `task` to finish and returns its value; cancelling the wait cancels the task, so that
/// ``within(_:limit:_:)`` stops it at its limit.
///
/// ```swift
/// let run = Task { try await group.run() }
/// …
/// try await within("the group's run to return") { try await value(of: run) }
/// ```
public func value<T: Sendable>(of task: Task<T, any Error>) async throws -> T {
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}

/// Waits until `condition` holds, checking it every millisecond, at most `limit`.
///
/// The condition runs in the caller's isolation, so a main-actor test can check main-actor state, and the main actor
/// runs other work between checks.
///
/// ```swift
/// try await eventually("the 4,000 posted values to apply") { recorder.seen.count == 4_000 }
/// ```
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - limit: How long to wait.
///   - condition: What must become true.
/// - Throws: ``TimedOut`` when `limit` passed first; `CancellationError` when the caller was cancelled.
public func eventually(
    _ what: String,
    limit: Duration = waitLimit,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
