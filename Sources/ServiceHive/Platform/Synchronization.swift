internal import ServiceHiveSystem
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
/// The lock is a word at the start of the state's allocation, taken and released by ServiceHiveSystem's `Lock.h`, the
/// same code on every platform but for the system calls that wait and wake: with one atomic instruction, inlined,
/// where a guarded dictionary lookup measured 18–22 ns through `Synchronization.Mutex`, against 35–42 ns through
/// `pthread_mutex`, a call. `Lock.h` says why it is not a `Mutex`.
///
/// The lock is taken and released in two calls, `lock()` and `unlock()`, rather than only around a closure, as a
/// `Mutex<State>` would, so that the resolution path can take the lock, copy a cached instance's value, unlock and
/// return the value, without the closure of `withLock`: a closure can hand back a value of an unknown generic type only
/// in an `Optional`, which costs a metadata lookup, or in the instance's box, which costs a retain and a release.
/// `HiveCore.cachedValue` cites what that saves. Each `Locked` makes one allocation besides itself, for its word and
/// state: one per hive family, override layer, install, `Lazy`, construction of a shared instance, and top-level async
/// resolve that finds no cached instance; none per synchronous resolve.
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    // Sendable: `state` is read and written only with the lock held, inside `withLock` or between `lock()` and
    // `unlock()`. Unchecked because the compiler can't see that: the state and the lock word live behind raw pointers,
    // in one allocation, and the lock is a C function (`Lock.h`).
    /// The lock (`Lock.h`), 0 when free: at the start of the state's allocation, so that a `Locked` allocates once.
    private let word: UnsafeMutablePointer<UInt32>
    /// ThreadSanitizer did not see `Mutex`'s lock and unlock in Swift 6.3 on Linux, and without being told it reported
    /// every access to the guarded state as a race; it may not see the atomics of a C function inlined into Swift
    /// either. When the ThreadSanitizer runtime is loaded, these are its annotations; otherwise `nil`, at the cost of a
    /// branch. Where ThreadSanitizer does see the lock, they only repeat what it knows.
    private let sanitizer = ThreadSanitizerAnnotations.current
    private let state: UnsafeMutablePointer<State>
    #if DEBUG
    /// How many times the lock was taken, for the tests that check which paths take none. Debug builds only, so that
    /// what the benchmarks count is the code users run.
    package let acquisitions = Atomic<Int>(0)
    #endif

    package init(_ state: consuming sending State) {
        // The word, then the state at the next multiple of its alignment.
        let offset = max(MemoryLayout<State>.alignment, MemoryLayout<UInt32>.stride)
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: offset + MemoryLayout<State>.size,
            alignment: max(MemoryLayout<State>.alignment, MemoryLayout<UInt32>.alignment))
        word = memory.initializeMemory(as: UInt32.self, to: 0)
        self.state = (memory + offset).bindMemory(to: State.self, capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        UnsafeMutableRawPointer(word).deallocate()
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
        service_hive_lock(word)
        #if DEBUG
        acquisitions.add(1, ordering: .relaxed)
        #endif
        sanitizer?.acquire(UnsafeRawPointer(state))
        return UnsafePointer(state)
    }

    /// Releases the lock that `lock()` took.
    func unlock() {
        sanitizer?.release(UnsafeRawPointer(state))
        service_hive_unlock(word)
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
