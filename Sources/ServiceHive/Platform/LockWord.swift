internal import ServiceHiveSystem

#if canImport(Darwin)
import Darwin
#endif

/// How `Locked` takes and releases its lock, a 32-bit word that is 0 when free: with the operating system's lock that
/// lets a running thread take a freed lock, rather than hand it to a waiting thread that is not running yet. Besides
/// `StackBounds.swift`, the only code that differs between operating systems.
///
/// On Linux, ServiceHiveSystem's `Lock.h`: one compare-and-swap, inlined, and a plain futex when the lock is taken.
/// `Synchronization.Mutex` there is a priority-inheritance futex, which hands a contended lock to a waiting thread
/// through the kernel: with more threads than cores, the new holder often isn't running, and every handover waits for
/// the scheduler. `Benchmarks/ThreadScaling` measured 0.3 ms per transient resolve on 8 threads on 2 cores, and
/// 0.18 ms per `resolveAll`, where this lock gives 4 µs and 2. On Darwin, `os_unfair_lock`, which is what `Mutex` is
/// there, and which a freed lock's waiter does not own before it runs.
enum LockWord {
    /// Takes the lock at `word`, waiting while another thread holds it.
    static func lock(_ word: UnsafeMutablePointer<UInt32>) {
        #if canImport(Darwin)
        word.withMemoryRebound(to: os_unfair_lock.self, capacity: 1) { os_unfair_lock_lock($0) }
        #else
        service_hive_lock(word)
        #endif
    }

    /// Releases the lock at `word`, which the calling thread holds.
    static func unlock(_ word: UnsafeMutablePointer<UInt32>) {
        #if canImport(Darwin)
        word.withMemoryRebound(to: os_unfair_lock.self, capacity: 1) { os_unfair_lock_unlock($0) }
        #else
        service_hive_unlock(word)
        #endif
    }
}
