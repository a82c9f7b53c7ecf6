import Dispatch

/// Identifies a thread, or an async construction, as the owner of a construction and as a waiter.
typealias WaiterID = UInt

/// A shared instance that one thread or task is building while others wait for it.
final class PendingInstance: Sendable {
    let entry: Entry
    /// The thread that builds it; `nil` when it is built by a task of its own, which then waits as the construction.
    private let thread: WaiterID?
    /// The registrations whose instances a reset, or an install's rollback, dropped while this construction ran: an
    /// instance built from one of them is handed to its caller and not cached. Taken with the family lock held.
    let dropped = Locked<Set<ObjectIdentifier>>([])

    init(entry: Entry, owner: WaiterID?) {
        self.entry = entry
        thread = owner
    }

    /// Who builds it: the thread, or the construction itself for an async construction.
    var owner: WaiterID { thread ?? WaiterID(UInt(bitPattern: ObjectIdentifier(self))) }
}

/// Makes threads wait for constructions, and refuses a wait that would close a cycle of waiters.
///
/// This is the slow path, taken only while a shared instance is being built for the first time, so one process-wide
/// lock serves every hive. No hive lock is held while it is, and no user code runs under it.
enum Waits {
    /// Guards, and only guards, the constructions in progress and who waits for what.
    static let graph = Locked(WaitGraph())

    /// Registers a construction that is about to run its factory.
    static func begin(_ construction: PendingInstance) {
        graph.withLock { $0.pending[ObjectIdentifier(construction)] = Awaited(construction: construction) }
    }

    /// Marks `construction` finished, successfully or not, and wakes everyone waiting for it.
    static func finish(_ construction: PendingInstance) {
        let pending = graph.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(construction)) }
        for wakeup in pending?.wakeups ?? [] { wakeup.signal() }
    }

    /// Makes `instance` visible to the thread that builds `construction` while its post-construction hook runs, so
    /// that the hook may resolve services that resolve it back.
    static func provide(_ instance: Instance, for construction: PendingInstance) {
        graph.withLock { $0.pending[ObjectIdentifier(construction)]?.provisional = instance }
    }

    /// Blocks until `construction` finishes; or returns at once with the instance that its post-construction hook,
    /// running on this thread, sees.
    ///
    /// - Parameters:
    ///   - waiter: The thread that waits.
    ///   - chain: The factories running on that thread, outermost first.
    /// - Throws: ``ServiceHiveError/circularDependency(_:)`` instead of waiting when the construction's owner is the
    ///   waiter, or is itself waiting, directly or through others, for something the waiter is building.
    static func wait(
        for construction: PendingInstance,
        as waiter: WaiterID,
        chain: [Entry]
    ) throws(ServiceHiveError) -> Instance? {
        let semaphore = DispatchSemaphore(value: 0)
        switch try block(waiter, on: construction, chain: chain, wakeup: .thread(semaphore)) {
        case .finished: return nil
        case .provisional(let instance): return instance
        case .blocked: break
        }
        semaphore.wait()
        graph.withLock { _ = $0.blocked.removeValue(forKey: waiter) }
        return nil
    }

    /// Suspends the current task until `construction` finishes; as ``wait(for:as:chain:)`` for an async waiter.
    ///
    /// Cancellation does not end the wait: the construction finishes for everyone, and the waiter then has its
    /// instance, or looks again.
    static func wait(
        for construction: PendingInstance,
        as waiter: WaiterID,
        chain: [Entry]
    ) async throws(ServiceHiveError) {
        guard case .blocked = try block(waiter, on: construction, chain: chain, wakeup: nil) else { return }
        await withCheckedContinuation { continuation in
            let registered = graph.withLock { graph in
                graph.pending[ObjectIdentifier(construction)]?.wakeups.append(.task(continuation)) != nil
            }
            if !registered { continuation.resume() }  // It finished in between.
        }
        graph.withLock { _ = $0.blocked.removeValue(forKey: waiter) }
    }

    /// Records that `waiter` waits for `construction`, unless it has finished or has an instance for its builder.
    ///
    /// - Throws: ``ServiceHiveError/circularDependency(_:)`` when the wait would close a cycle of waiters.
    private static func block(
        _ waiter: WaiterID,
        on construction: PendingInstance,
        chain: [Entry],
        wakeup: Wakeup?
    ) throws(ServiceHiveError) -> Block {
        try graph.withLock { (graph) throws(ServiceHiveError) -> Block in
            let key = ObjectIdentifier(construction)
            guard let pending = graph.pending[key] else { return .finished }
            if let provisional = pending.provisional, construction.owner == waiter { return .provisional(provisional) }
            if let cycle = graph.cycle(waiting: waiter, for: construction, chain: chain) {
                throw .circularDependency(cycle.map(\.serviceKey))
            }
            if let wakeup { graph.pending[key]?.wakeups.append(wakeup) }
            graph.blocked[waiter] = Blocked(construction: construction, chain: chain + [construction.entry])
            return .blocked
        }
    }

    /// What `block` found.
    private enum Block: Sendable {
        case finished
        case blocked
        case provisional(Instance)
    }
}

/// Who waits for what. Guarded by `Waits.graph`.
struct WaitGraph {
    var pending: [ObjectIdentifier: Awaited] = [:]
    var blocked: [WaiterID: Blocked] = [:]

    /// The cycle that `waiter` waiting for `construction` would close, or `nil`.
    ///
    /// The walk follows only unfinished constructions. The graph stays acyclic because every wait that would close a
    /// cycle is refused, so the walk ends.
    func cycle(waiting waiter: WaiterID, for construction: PendingInstance, chain: [Entry]) -> [Entry]? {
        var path = chain + [construction.entry]
        var awaited = construction
        var owner = construction.owner
        while owner != waiter {
            guard let next = blocked[owner], pending[ObjectIdentifier(next.construction)] != nil else { return nil }
            if let index = next.chain.firstIndex(where: { $0 === awaited.entry }) {
                path += next.chain[(index + 1)...]
            } else {
                path += next.chain
            }
            awaited = next.construction
            owner = next.construction.owner
        }
        guard let last = path.last, let start = path.firstIndex(where: { $0 === last }) else { return path }
        return Array(path[start...])
    }
}

struct Awaited: Sendable {
    let construction: PendingInstance
    var wakeups: [Wakeup] = []
    /// The instance whose post-construction hook runs, for its builder alone.
    var provisional: Instance?
}

/// What a waiter is blocked on, and its chain followed by the awaited entry.
struct Blocked: Sendable {
    let construction: PendingInstance
    let chain: [Entry]
}

/// How to wake a waiter: a blocked thread, or a suspended task.
enum Wakeup: Sendable {
    case thread(DispatchSemaphore)
    case task(CheckedContinuation<Void, Never>)

    func signal() {
        switch self {
        case .thread(let semaphore): semaphore.signal()
        case .task(let continuation): continuation.resume()
        }
    }
}
