import Foundation
import Testing

/// A value guarded by a lock, for counting across threads in tests.
final class Locked<Value>: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

extension Locked where Value == Int {
    /// Adds one to the count and returns the new count.
    @discardableResult
    func increment() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }
}

/// Runs `body(index)` on `count` new threads that start together, and waits for them with a deadline, so that a
/// deadlock fails the test instead of hanging it.
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
    let ready = DispatchGroup()
    let finished = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        finished.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            body(index)
            finished.leave()
        }
        thread.stackSize = stackSize
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    let result = finished.wait(timeout: .now() + timeout)
    #expect(
        result == .success, "threads did not finish within \(timeout) s: a deadlock", sourceLocation: sourceLocation)
    return result == .success
}

/// Sleeps the current thread, to widen a race window.
func pause(milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
