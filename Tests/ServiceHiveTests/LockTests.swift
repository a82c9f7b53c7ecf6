import Foundation
import Synchronization
import Testing

@testable import ServiceHive

// The package's one lock, `Locked`, under more threads than the machine has cores, where a thread that finds it taken
// spins and then waits in the kernel (ServiceHiveSystem's `Lock.h`).

@Suite("The lock", .timeLimit(.minutes(2)))
struct LockTests {
    @Test("more threads than cores, each adding 1 under the lock 100,000 times, lose no addition")
    func mutualExclusion() async {
        let threads = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
        let rounds = 100_000
        let count = Locked(0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = Atomic<Int>(0)
            for _ in 0..<threads {
                Thread {
                    for _ in 0..<rounds { count.withLock { $0 += 1 } }
                    if finished.add(1, ordering: .acquiringAndReleasing).newValue == threads { done.resume() }
                }.start()
            }
        }
        #expect(count.withLock { $0 } == threads * rounds)
    }

    @Test("a thread waiting for the lock takes it once its holder releases it, and sees what the holder wrote")
    func waiterWakes() async {
        let state = Locked(0)
        let holding = DispatchSemaphore(value: 0)
        let waited = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread {
                let value = UnsafeMutablePointer(mutating: state.lock())
                holding.signal()
                // Long enough for the waiter to stop spinning and sleep in the kernel.
                Thread.sleep(forTimeInterval: 0.05)
                value.pointee = 1
                state.unlock()
            }.start()
            Thread {
                holding.wait()
                done.resume(returning: state.withLock { $0 })
            }.start()
        }
        #expect(waited == 1)
    }
}
