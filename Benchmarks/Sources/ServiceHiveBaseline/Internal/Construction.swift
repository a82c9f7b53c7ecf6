#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A `.singleton` or `.weak` instance that one thread is building while others wait for it.
final class Construction: @unchecked Sendable {
    // Sendable: `owner` and `entry` are immutable; `isFinished` is guarded by `ConstructionCoordinator.shared`'s
    // lock.
    let owner: ResolutionContext
    let entry: Entry
    @exclusivity(unchecked) var isFinished = false

    init(owner: ResolutionContext, entry: Entry) {
        self.owner = owner
        self.entry = entry
    }
}

/// Makes threads wait for constructions, and refuses a wait that would close a cycle of threads waiting on each
/// other.
///
/// This is the slow path, taken only while a shared instance is being built for the first time, so one
/// process-wide lock and condition variable serve every hive. No hive lock is ever held while this lock is, and no
/// user code runs under it.
final class ConstructionCoordinator: @unchecked Sendable {
    // Sendable: `mutex` guards every `Construction.isFinished`, `ResolutionContext.waitingFor` and
    // `ResolutionContext.waitingChain`; `condition` is signalled whenever a construction finishes.
    static let shared = ConstructionCoordinator()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    private init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    /// Marks `construction` finished, successfully or not, and wakes every waiting thread.
    func finish(_ construction: Construction) {
        pthread_mutex_lock(mutex)
        construction.isFinished = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `construction` finishes.
    ///
    /// - Throws: ``ServiceHiveError/circularDependency(_:)`` instead of waiting when the construction's owner is
    ///   this thread, or is itself waiting, directly or through other threads, for something this thread is
    ///   building. Waiting then would deadlock; the chain names the services of the cycle, across the threads.
    func wait(for construction: Construction, context: ResolutionContext) throws(ServiceHiveError) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if construction.isFinished { return }

        if let cycle = cycle(waitingFor: construction, from: context) {
            throw .circularDependency(cycle.map(\.serviceKey))
        }

        context.waitingFor = construction
        context.waitingChain = context.chainEntries + [construction.entry]
        while !construction.isFinished {
            pthread_cond_wait(condition, mutex)
        }
        context.waitingFor = nil
        context.waitingChain = []
    }

    /// The cycle that waiting for `construction` would close, or `nil`. Called with `mutex` held.
    ///
    /// The walk follows only unfinished constructions. A thread whose awaited construction has finished is about
    /// to wake and run on, so it blocks nobody; its `waitingFor` is stale until it does, and the finished
    /// construction's owner may since have exited, with its context's memory reused by another thread.
    ///
    /// The wait-for graph is kept acyclic by refusing every wait that would close a cycle, so this walk ends.
    private func cycle(waitingFor construction: Construction, from context: ResolutionContext) -> [Entry]? {
        var path = context.chainEntries + [construction.entry]
        var awaited = construction
        var owner = construction.owner
        while !(owner === context) {
            guard let next = owner.waitingFor, !next.isFinished else { return nil }
            let ownerPath = owner.waitingChain
            if let index = ownerPath.firstIndex(where: { $0 === awaited.entry }) {
                path += ownerPath[(index + 1)...]
            } else {
                path += ownerPath
            }
            awaited = next
            owner = next.owner
        }
        guard let last = path.last, let start = path.firstIndex(where: { $0 === last }) else { return path }
        return Array(path[start...])
    }
}
