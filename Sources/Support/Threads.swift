import Foundation

/// Runs `body(index)` on `count` new threads that start together, and waits for them until `timeout`, so that a
/// deadlock fails a test instead of hanging it.
///
/// - Returns: `true` when every thread finished before the deadline.
@discardableResult
public func runTogether(
    _ count: Int,
    timeout: TimeInterval = 30,
    stackSize: Int = 8 << 20,
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
    return finished.wait(timeout: .now() + timeout) == .success
}

/// Sleeps the current thread, to widen a race window.
public func pause(milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
