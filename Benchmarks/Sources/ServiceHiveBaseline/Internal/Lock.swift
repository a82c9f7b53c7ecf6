#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#else
#error("ServiceHive needs Darwin, Glibc, Musl or Bionic for its lock.")
#endif

/// A non-recursive mutual-exclusion lock at a stable heap address.
///
/// On Apple platforms this is an `os_unfair_lock`; elsewhere a `pthread_mutex_t`. Both cost about 10 ns per
/// lock and unlock here, against about 55 ns for `Synchronization.Mutex`, which would also raise the platform
/// floor to macOS 15.
///
/// The lock guards nothing itself. Each owner documents, beside its stored properties, which of them this lock
/// guards.
///
/// `Lock` is a pointer, so a copy refers to the same lock and costs no reference counting; that is why the hot
/// path holds it inline. Whoever calls ``allocate()`` calls ``deallocate()`` exactly once, after the last use.
struct Lock: @unchecked Sendable {
    // Sendable: the primitive is only touched through the platform's thread-safe lock calls.
    #if canImport(Darwin)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// Creates a new, unlocked lock.
    static func allocate() -> Lock { Lock() }

    private init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(primitive, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
    }

    /// Destroys the lock. It must be unlocked and never used again.
    func deallocate() {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
