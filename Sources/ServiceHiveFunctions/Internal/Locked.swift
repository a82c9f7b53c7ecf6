#if canImport(Darwin)
import os

/// A value and the one lock that guards it: the only lock in ServiceHiveFunctions, guarding the ``Inbox``.
///
/// The same lock as the ServiceHive core's, whose `Locked` is internal to that module. On Apple platforms it is an
/// `os_unfair_lock`, because `Synchronization.Mutex` needs macOS 15 and iOS 18 and the package supports macOS 13 and
/// iOS 16.
final class Locked<State>: @unchecked Sendable {
    // Sendable: `state` is read and written only inside `withLock`, with the `os_unfair_lock` at `lock` held.
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    private var state: State

    init(_ state: State) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: os_unfair_lock())
        self.state = state
    }

    deinit {
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        return body(&state)
    }
}
#else
import Synchronization

/// A value and the one lock that guards it: the only lock in ServiceHiveFunctions, guarding the ``Inbox``.
///
/// The same lock as the ServiceHive core's, whose `Locked` is internal to that module: `Synchronization.Mutex` off
/// Apple platforms.
final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: sending State) {
        mutex = Mutex(state)
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { (state: inout sending State) -> Result in body(&state) }
    }
}
#endif
