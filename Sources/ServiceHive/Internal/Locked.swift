#if canImport(Darwin)
import os

/// A value and the one lock that guards it: the only lock type in ServiceHive.
///
/// Each owner lists, beside the `Locked` property, everything its lock guards. No user code runs under a lock:
/// factories, `deinit`s and callbacks run after `withLock` returns.
///
/// On Apple platforms this is an `os_unfair_lock`, because `Synchronization.Mutex` needs macOS 15 and iOS 18 and the
/// package supports macOS 13 and iOS 16. This branch is the only code in ServiceHive that no machine in CI compiles.
final class Locked<State: ~Copyable>: @unchecked Sendable {
    // Sendable: `state` is read and written only inside `withLock`, with `lock` held.
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    private var state: State

    init(_ state: consuming State) {
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
    func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        return try body(&state)
    }
}
#else
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value and the one lock that guards it: the only lock type in ServiceHive.
///
/// Each owner lists, beside the `Locked` property, everything its lock guards. No user code runs under a lock:
/// factories, `deinit`s and callbacks run after `withLock` returns.
///
/// Off Apple platforms this is `Synchronization.Mutex`: a guarded dictionary lookup measured 18–22 ns here, against
/// 35–42 ns through `pthread_mutex`.
final class Locked<State: ~Copyable>: Sendable {
    private let mutex: Mutex<State>
    /// ThreadSanitizer does not see `Mutex`'s lock and unlock in Swift 6.3 on Linux, and without being told it reports
    /// every access to the guarded state as a race. When the ThreadSanitizer runtime is loaded, these are its
    /// annotations; otherwise `nil`, at the cost of a branch.
    private let sanitizer = ThreadSanitizerAnnotations.current

    init(_ state: consuming sending State) {
        mutex = Mutex(state)
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { (state: inout sending State) throws(Failure) -> Result in
            guard let sanitizer else { return try body(&state) }
            let address = UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(self)))
            sanitizer.acquire(address)
            defer { sanitizer.release(address) }
            return try body(&state)
        }
    }
}

/// ThreadSanitizer's `__tsan_acquire` and `__tsan_release`, found once, when its runtime is loaded.
struct ThreadSanitizerAnnotations: Sendable {
    typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    let acquire: Annotation
    let release: Annotation

    static let current: ThreadSanitizerAnnotations? = {
        let program = dlopen(nil, RTLD_NOW)
        guard let acquire = dlsym(program, "__tsan_acquire"), let release = dlsym(program, "__tsan_release") else {
            return nil
        }
        return ThreadSanitizerAnnotations(
            acquire: unsafeBitCast(acquire, to: Annotation.self), release: unsafeBitCast(release, to: Annotation.self))
    }()
}
#endif
