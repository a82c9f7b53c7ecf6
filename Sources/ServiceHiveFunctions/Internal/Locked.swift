#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value and the one lock that guards it: the only lock in ServiceHiveFunctions, guarding the ``Inbox``.
///
/// The lock is an `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, with every return code
/// checked, as swift-log's `Locks.swift` does. Not `Synchronization.Mutex`, the ServiceHive core's choice on Linux:
/// ThreadSanitizer can't see its futex, so it reports every access it guards as a race, and this lock's tests are
/// there to run under ThreadSanitizer. The lock is taken once per post and once per delivery, not per control, so
/// the 20 ns that `Mutex` saves per acquisition don't show in the posting benchmark.
final class Locked<State>: @unchecked Sendable {
    // Sendable: `state` is read and written only inside `withLock`, with the lock at `lock` held.
    #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    private var state: State

    init(_ state: State) {
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        lock.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(lock, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
        self.state = state
    }

    deinit {
        #if !canImport(Darwin)
        let status = pthread_mutex_destroy(lock)
        precondition(status == 0, "pthread_mutex_destroy failed: \(status)")
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        let locked = pthread_mutex_lock(lock)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(lock)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
        }
        #endif
        return body(&state)
    }
}
