import Dispatch

/// Identifies a thread, or an async construction, as the owner of a construction and as a waiter.
struct WaiterID: Hashable, Sendable {
    let raw: UInt
    init(_ raw: UInt) { self.raw = raw }
}

/// A shared instance that one thread or task is building while others wait for it.
final class Construction: Sendable {
    let entry: Entry
    let owner: WaiterID

    init(entry: Entry, owner: WaiterID) {
        self.entry = entry
        self.owner = owner
    }
}

/// Makes threads wait for constructions, and refuses a wait that would close a cycle of waiters.
///
/// This is the slow path, taken only while a shared instance is being built for the first time, so one process-wide
/// lock serves every hive. No hive lock is held while it is, and no user code runs under it.
enum Waits {
    /// Guards, and only guards, the constructions in progress and who waits for what.
    static let graph = Locked(WaitGraph())

    /// Registers a construction that is about to run its factory.
    static func begin(_ construction: Construction) {
        graph.withLock { $0.pending[ObjectIdentifier(construction)] = Pending(construction: construction) }
    }

    /// Marks `construction` finished, successfully or not, and wakes everyone waiting for it.
    static func finish(_ construction: Construction) {
        let pending = graph.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(construction)) }
        for wakeup in pending?.wakeups ?? [] { wakeup.signal() }
    }

    /// Blocks until `construction` finishes.
    ///
    /// - Parameters:
    ///   - waiter: The thread that waits.
    ///   - chain: The factories running on that thread, outermost first.
    /// - Throws: ``ServiceHiveError/circularDependency(_:)`` instead of waiting when the construction's owner is the
    ///   waiter, or is itself waiting, directly or through others, for something the waiter is building.
    static func wait(for construction: Construction, as waiter: WaiterID, chain: [Entry]) throws(ServiceHiveError) {
        let semaphore = DispatchSemaphore(value: 0)
        let isPending = try graph.withLock { (graph) throws(ServiceHiveError) -> Bool in
            let key = ObjectIdentifier(construction)
            guard graph.pending[key] != nil else { return false }
            if let cycle = graph.cycle(waiting: waiter, for: construction, chain: chain) {
                throw .circularDependency(cycle.map(\.serviceKey))
            }
            graph.pending[key]?.wakeups.append(Wakeup(semaphore: semaphore))
            graph.blocked[waiter] = Blocked(construction: construction, chain: chain + [construction.entry])
            return true
        }
        guard isPending else { return }
        semaphore.wait()
        graph.withLock { _ = $0.blocked.removeValue(forKey: waiter) }
    }
}

/// Who waits for what. Guarded by `Waits.graph`.
struct WaitGraph {
    var pending: [ObjectIdentifier: Pending] = [:]
    var blocked: [WaiterID: Blocked] = [:]

    /// The cycle that `waiter` waiting for `construction` would close, or `nil`.
    ///
    /// The walk follows only unfinished constructions. The graph stays acyclic because every wait that would close a
    /// cycle is refused, so the walk ends.
    func cycle(waiting waiter: WaiterID, for construction: Construction, chain: [Entry]) -> [Entry]? {
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

struct Pending: Sendable {
    let construction: Construction
    var wakeups: [Wakeup] = []
}

/// What a waiter is blocked on, and its chain followed by the awaited entry.
struct Blocked: Sendable {
    let construction: Construction
    let chain: [Entry]
}

/// How to wake a waiter.
struct Wakeup: Sendable {
    let semaphore: DispatchSemaphore

    func signal() { semaphore.signal() }
}
