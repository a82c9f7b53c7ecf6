#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// The graph-scope cache key: one instance per registration and per hive whose view built it.
struct GraphKey: Hashable {
    let entry: ObjectIdentifier
    let view: ObjectIdentifier
}

/// A graph-scoped instance. It keeps its entry alive so that the entry's address, the key, cannot be reused by
/// another registration while the instance is cached.
struct GraphInstance {
    let entry: Entry
    let box: AnyObject
}

/// The state of the resolve that is running on one thread.
///
/// Factories are synchronous, so a top-level resolve and every resolve nested inside its factories run on one
/// thread, whether a factory uses its `ServiceHive.Resolver` or calls `hive.resolve` directly. Keeping this state in
/// thread-specific storage is what lets cycle detection, the dependency chain in errors and `.graph` sharing work
/// for both, with no allocation per resolve.
final class ResolutionContext: @unchecked Sendable {
    // Sendable: `chain` and `graph` are touched only by the thread whose thread-specific storage holds this
    // context. `waitingFor` and `waitingChain` are guarded by `ConstructionCoordinator.shared`'s lock, because other
    // threads read them to detect a cycle of threads waiting on one another.

    /// The registrations whose factories are running on this thread, outermost first. The entries are unretained:
    /// each is kept alive by the frame that pushed it, and popped before that frame returns.
    @exclusivity(unchecked) var chain: ContiguousArray<Unmanaged<Entry>> = []
    /// The `.graph` instances of the current top-level resolve.
    @exclusivity(unchecked) var graph: [GraphKey: GraphInstance] = [:]
    /// The construction this thread is blocked on. Guarded by the coordinator's lock.
    @exclusivity(unchecked) var waitingFor: Construction?
    /// `chain` followed by the entry of `waitingFor`, captured when this thread started waiting. Guarded by the
    /// coordinator's lock.
    @exclusivity(unchecked) var waitingChain: [Entry] = []

    init() {
        chain.reserveCapacity(16)
    }

    /// This thread's context, created on first use and released when the thread exits.
    @inline(__always)
    static var current: ResolutionContext {
        if let raw = pthread_getspecific(resolutionContextKey) {
            return Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> ResolutionContext {
        let context = ResolutionContext()
        pthread_setspecific(resolutionContextKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// Whether `entry` is being built on this thread.
    @inline(__always)
    func isBuilding(_ entry: Entry) -> Bool {
        let target = Unmanaged.passUnretained(entry).toOpaque()
        return chain.contains { $0.toOpaque() == target }
    }

    /// The ``ServiceHiveError/circularDependency(_:)`` for resolving `entry` while it is being built on this
    /// thread: the chain from `entry`'s first appearance, closed by `entry`.
    func cycleError(closingAt entry: Entry) -> ServiceHiveError {
        let entries = chainEntries + [entry]
        let start = entries.firstIndex { $0 === entry } ?? 0
        return .circularDependency(entries[start...].map(\.serviceKey))
    }

    /// The entries whose factories are running, outermost first.
    var chainEntries: [Entry] { chain.map { $0.takeUnretainedValue() } }

    /// The printable chain, dropping the innermost `dropping` links.
    func chainKeys(dropping: Int = 0) -> [ServiceHive.ServiceKey] {
        chain.dropLast(dropping).map { $0.takeUnretainedValue().serviceKey }
    }

    /// Ends a top-level resolve: forgets its `.graph` instances.
    ///
    /// The cache is swapped out before the instances are released, because releasing one runs its `deinit`, which
    /// may itself resolve on this thread.
    func endGraph() {
        var finished: [GraphKey: GraphInstance] = [:]
        swap(&finished, &graph)
        withExtendedLifetime(finished) {}
    }
}

/// The thread-specific-storage key for `ResolutionContext.current`. Its destructor releases a thread's context
/// when the thread exits.
private let resolutionContextKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let status = pthread_key_create(&key) { raw in
        Unmanaged<ResolutionContext>.fromOpaque(raw).release()
    }
    #else
    let status = pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<ResolutionContext>.fromOpaque(raw).release()
    }
    #endif
    precondition(status == 0, "ServiceHive could not create its thread-specific storage key: \(status)")
    return key
}()
