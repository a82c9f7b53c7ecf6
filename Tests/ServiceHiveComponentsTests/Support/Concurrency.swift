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
