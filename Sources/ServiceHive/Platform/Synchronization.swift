import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value and the one lock that guards it: the only lock type in the package, which ServiceHiveFunctions uses too.
///
/// Each owner lists, beside the `Locked` property, everything its lock guards. No user code runs under a lock:
/// factories, `deinit`s and callbacks run after `withLock` returns, or after `unlock()`.
///
/// The lock is a `Synchronization.Mutex` on every platform, so the code that CI builds, tests and counts is the code
/// every platform runs: a guarded dictionary lookup measured 18–22 ns here, against 35–42 ns through `pthread_mutex`.
///
/// The state is kept beside the lock, rather than inside a `Mutex<State>`, so that the resolution path can take the
/// lock, copy a cached instance's value, unlock and return the value, without the closure of `withLock`: a closure
/// can hand back a value of an unknown generic type only in an `Optional`, which costs a metadata lookup, or in the
/// instance's box, which costs a retain and a release. `HiveCore.cachedValue` cites what that saves. The price is one
/// allocation more for each `Locked`: one per hive family, override layer, install, `Lazy`, construction of a shared
/// instance, and top-level async resolve that finds no cached instance; none per synchronous resolve.
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    // Sendable: `state` is read and written only with `primitive` held, inside `withLock` or between `lock()` and
    // `unlock()`.
    private let primitive = Mutex<Void>(())
    /// ThreadSanitizer does not see `Mutex`'s lock and unlock in Swift 6.3 on Linux, and without being told it reports
    /// every access to the guarded state as a race. When the ThreadSanitizer runtime is loaded, these are its
    /// annotations; otherwise `nil`, at the cost of a branch. Where ThreadSanitizer does see the lock, they only
    /// repeat what it knows.
    private let sanitizer = ThreadSanitizerAnnotations.current
    private let state: UnsafeMutablePointer<State>
    #if DEBUG
    /// How many times the lock was taken, for the tests that check which paths take none. Debug builds only, so that
    /// what the benchmarks count is the code users run.
    package let acquisitions = Atomic<Int>(0)
    #endif

    package init(_ state: consuming sending State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    package func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _ = lock()
        defer { unlock() }
        return try body(&state.pointee)
    }

    /// Takes the lock, and gives the state to read until `unlock()`. Only the resolution path's quick lookups use it,
    /// to return a cached instance's value read under the lock, each with `defer { unlock() }` right after it;
    /// everything else uses `withLock`.
    func lock() -> UnsafePointer<State> {
        // `Mutex` has no other way to lock without a closure, which the quick path cannot use (see above `Locked`).
        // Underscored, as `_unsafeUnlock()` is: a later toolchain may rename them.
        primitive._unsafeLock()
        #if DEBUG
        acquisitions.add(1, ordering: .relaxed)
        #endif
        sanitizer?.acquire(UnsafeRawPointer(state))
        return UnsafePointer(state)
    }

    /// Releases the lock that `lock()` took.
    func unlock() {
        sanitizer?.release(UnsafeRawPointer(state))
        primitive._unsafeUnlock()
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

/// How many of some activity, such as recording what a construction uses, are in progress on every thread and task.
///
/// A hot path reads it without a lock to skip a costlier check while nothing of the kind is in progress. An activity
/// is counted before it starts, so a thread or task always sees its own.
struct ActivityCount: ~Copyable, Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Whether an activity may be in progress: `false` only when none is.
    var mayBeActive: Bool { count.load(ordering: .relaxed) != 0 }

    /// Counts an activity that starts.
    func begin() { count.add(1, ordering: .relaxed) }

    /// Counts an activity that has ended.
    func end() { count.subtract(1, ordering: .relaxed) }
}
