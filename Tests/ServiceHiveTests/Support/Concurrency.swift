import Foundation
import Testing

// Temporary: the component tests still wait for their threads synchronously, until they are converted to `onThreads`
// (they are moving to a test target of their own). Nothing else may use it.

@discardableResult
func runOnThreads(
    _ count: Int,
    timeout: TimeInterval = 30,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        Thread {
            body(index)
            finished.leave()
        }.start()
    }
    let done = finished.wait(timeout: .now() + timeout) == .success
    #expect(done, "threads did not finish within \(timeout) s: a deadlock", sourceLocation: sourceLocation)
    return done
}
