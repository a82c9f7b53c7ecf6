import Dispatch
import Foundation
import Synchronization

/// Runs the same loop on a number of plain threads released together, and times them from that common start.
///
/// Each thread is a new `Thread`, not a task of the cooperative pool. It first runs its scenario's setup (a request's
/// child hive, and one warming operation), then waits at the barrier; once every thread is waiting, the start time is
/// read and all are released. Each thread reads the clock when its loop ends, and the race lasts from the start to the
/// latest of those ends, so that neither creating the threads nor waking the main thread is counted.
enum ThreadRace {
    /// Runs `threads` threads, each the loop `prepare` returns, called with `operations`; returns the wall time from
    /// the common start until the last thread ended.
    static func run(
        threads: Int, operations: Int, prepare: @escaping @Sendable () -> @Sendable (Int) -> Void
    ) -> Duration {
        let ready = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let ends = LatestInstant()
        for _ in 0..<threads {
            Thread {
                let loop = prepare()
                ready.signal()
                start.wait()
                loop(operations)
                ends.record(ContinuousClock.now)
                done.signal()
            }.start()
        }
        for _ in 0..<threads { ready.wait() }
        let begin = ContinuousClock.now
        for _ in 0..<threads { start.signal() }
        for _ in 0..<threads { done.wait() }
        return ends.latest! - begin
    }
}

/// The latest of the instants the threads record as they end.
final class LatestInstant: Sendable {
    private let value = Mutex<ContinuousClock.Instant?>(nil)

    func record(_ instant: ContinuousClock.Instant) {
        value.withLock { latest in latest = max(latest ?? instant, instant) }
    }

    var latest: ContinuousClock.Instant? { value.withLock { $0 } }
}
