import Foundation
import ServiceHive

/// Runs `body(index)` on `count` new threads that start together, waits for all of them without blocking a thread of
/// the cooperative pool, and returns what each returned, in the order of the indexes.
///
/// The threads are the test's own, so a body may block, spin or deadlock without starving the tasks of other tests.
/// A body records nothing itself: Swift Testing attributes no issue recorded on a thread to a test. It returns what
/// it saw, and the test checks that on its own task:
///
/// ```swift
/// let resolved = try await onThreads(8) { _ in try hive.resolve(TradeService.self) }
/// #expect(Set(resolved.map(ObjectIdentifier.init)).count == 1)
/// ```
///
/// - Parameters:
///   - count: How many threads.
///   - what: What the threads do, for the message of a timeout.
///   - limit: How long to wait for the last thread; past it, the wait throws and abandons the threads.
///   - stackSize: The stack of each thread.
///   - body: What each thread runs, given its index.
/// - Returns: What each thread returned, by index.
/// - Throws: When every thread has ended, the error the thread of the lowest index threw, if any threw; ``TimedOut``
///   when `limit` passed first.
@discardableResult
public func onThreads<T: Sendable>(
    _ count: Int,
    _ what: String = "the threads",
    limit: Duration = waitLimit,
    stackSize: Int = 8 << 20,
    _ body: @escaping @Sendable (Int) throws -> T
) async throws -> [T] {
    precondition(count > 0, "onThreads needs at least one thread")
    let outcomes = try await within("\(what) (\(count) threads) to finish", limit: limit) {
        try await withCheckedThrowingContinuation {
            (finished: CheckedContinuation<[Result<T, any Error>], any Error>) in
            let state = Locked<(ready: Int, outcomes: [Int: Result<T, any Error>])>((0, [:]))
            let start = DispatchGroup()
            start.enter()
            for index in 0..<count {
                let thread = Thread {
                    // The last thread to be ready starts them all, so that they run together.
                    if state.withLock({
                        $0.ready += 1; return $0.ready
                    }) == count {
                        start.leave()
                    }
                    guard start.wait(timeout: .now() + limit.timeInterval) == .success else { return }
                    let outcome = Result { try body(index) }
                    let all = state.withLock { state -> [Result<T, any Error>]? in
                        state.outcomes[index] = outcome
                        guard state.outcomes.count == count else { return nil }
                        return (0..<count).map { state.outcomes[$0]! }  // every index is there
                    }
                    if let all { finished.resume(returning: all) }
                }
                thread.stackSize = stackSize
                thread.start()
            }
        }
    }
    return try outcomes.map { try $0.get() }
}

/// A signal that opens once, for a test to hold a thread or a task at a chosen point until it opens.
///
/// A thread that the test made waits with ``wait(limit:)``; a task, with ``opened(_:limit:)``, which suspends. Both
/// give up at their limit.
///
/// ```swift
/// let started = Gate()
/// let proceed = Gate()
/// try hive.register(Session.self, scope: .session) {
///     started.open()
///     guard proceed.wait() else { throw TimedOut(what: "the test to proceed", limit: waitLimit) }
///     return LiveSession()
/// }
/// ```
public final class Gate: Sendable {
    private let group = DispatchGroup()
    private let isOpen = Locked(false)

    /// A closed gate.
    public init() { group.enter() }

    deinit { open() }  // a group must be balanced when it goes

    /// Opens the gate, for every waiter and for good. Opening it again does nothing.
    public func open() {
        let opening = isOpen.withLock { isOpen in
            defer { isOpen = true }
            return !isOpen
        }
        if opening { group.leave() }
    }

    /// Blocks this thread until the gate opens, at most `limit`. Never call it from a task: it would block a thread
    /// of the cooperative pool.
    ///
    /// - Returns: Whether the gate opened before the limit.
    public func wait(limit: Duration = waitLimit) -> Bool {
        group.wait(timeout: .now() + limit.timeInterval) == .success
    }

    /// Suspends until the gate opens, at most `limit`.
    ///
    /// - Parameters:
    ///   - what: What the gate stands for, for the message of a timeout.
    ///   - limit: How long to wait.
    /// - Throws: ``TimedOut`` when `limit` passed first.
    public func opened(_ what: String, limit: Duration = waitLimit) async throws {
        let group = group
        try await within(what, limit: limit) {
            await withCheckedContinuation { continuation in
                group.notify(queue: waitEvents) { continuation.resume() }
            }
        }
    }
}

/// Sleeps the current thread, to widen a race window: for a thread the test made, or a factory such a thread runs. On a
/// task it blocks a thread of the cooperative pool, so there it must stay a few milliseconds.
public func pause(milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
