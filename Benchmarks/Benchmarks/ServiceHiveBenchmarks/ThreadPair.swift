import Foundation

/// Two long-lived threads that run the same work at the same time, for the concurrent scenario.
///
/// Each `run` releases both threads together and waits for both, so a benchmark iteration measures two threads
/// resolving at once, not thread creation. The threads are created once.
final class ThreadPair: @unchecked Sendable {
    // Sendable: `work` is written by `run` before it signals `start`, and read by the threads after they wait on
    // it; the semaphores order the accesses.
    private var work: (@Sendable () -> Void)?
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    static let shared = ThreadPair()

    private init() {
        for _ in 0..<2 {
            let thread = Thread { [unowned self] in
                while true {
                    start.wait()
                    work?()
                    done.signal()
                }
            }
            thread.start()
        }
    }

    /// Runs `work` on both threads at once and returns when both have finished.
    func run(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        start.signal()
        start.signal()
        done.wait()
        done.wait()
    }
}
