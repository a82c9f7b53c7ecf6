import Foundation
import Support
import Testing

/// Runs `body(index)` on `count` new threads that start together, and expects them to finish before `timeout`, so
/// that a deadlock fails the test instead of hanging it.
///
/// - Returns: `true` when every thread finished before the deadline.
@discardableResult
func runOnThreads(
    _ count: Int,
    timeout: TimeInterval = 30,
    stackSize: Int = 8 << 20,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let finished = runTogether(count, timeout: timeout, stackSize: stackSize, body)
    #expect(finished, "threads did not finish within \(timeout) s: a deadlock", sourceLocation: sourceLocation)
    return finished
}

/// `runOnThreads` for an async test: waits on a thread of its own, not on one of the cooperative pool, so that tasks
/// the threads start and wait for can run. A synchronous test that waits instead blocks one of the pool's two threads
/// on this machine, and its tasks starve while another test holds the other.
///
/// - Returns: `true` when every thread finished before the deadline.
@discardableResult
func runOnThreads(
    _ count: Int,
    timeout: TimeInterval = 30,
    stackSize: Int = 8 << 20,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    let finished = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: runTogether(count, timeout: timeout, stackSize: stackSize, body)) }
            .start()
    }
    #expect(finished, "threads did not finish within \(timeout) s: a deadlock", sourceLocation: sourceLocation)
    return finished
}
