import ServiceHive

/// One posted value on its way to the main actor: applies it to the center it is delivered to.
typealias Delivery = @MainActor @Sendable (FunctionCenter) -> Void

/// The values posted to one ``FunctionCenter`` and not yet applied, first in, first out.
///
/// Any thread or task appends; the main actor takes them, in order, and applies them. The order of the queue is the
/// order in which posts took the lock, so the values one thread or task posts apply in the order it posted them.
/// Waking the main actor is separate from ordering: the first post into an empty queue starts one main-actor task,
/// which applies at most `batchLimit` values and, while more wait, hands the rest to a new task of its own, so that
/// a poster that never pauses does not keep the main actor from everything else. One such chain runs at a time.
///
/// What waits is bounded: when `waitingLimit` values wait, each key keeps only its latest one, in the place of its
/// latest post. What applies is then the posted order with older values of a key left out, so each key still ends at
/// the value posted last, and no value applies after a newer one of its key.
final class Inbox: Sendable {
    /// One posted value and the key it goes to.
    private struct Waiting {
        let key: PostedKey
        let delivery: Delivery
    }

    /// A key as a post names it: its name, and its control and value types, which the generic post has at hand. The
    /// type of the `FunctionKey` itself, as `KeyIdentity` holds it, would cost a metadata lookup on every post.
    struct PostedKey: Hashable {
        let name: String
        let control: ObjectIdentifier
        let value: ObjectIdentifier
    }

    private struct State {
        /// The posted values, oldest first.
        var pending: [Waiting] = []
        /// How many values may wait before the older values of each key are dropped: `waitingLimit`, or twice the
        /// keys that wait when more than half the limit.
        var coalesceAt = Inbox.waitingLimit
        /// Whether a main-actor task will take `pending`; the next post into an empty queue starts one when not.
        var wakeScheduled = false
        /// The center to deliver to, held weakly: a poster does not keep its center alive.
        weak var center: FunctionCenter?
    }

    // Guards `pending`, `coalesceAt`, `wakeScheduled` and `center`.
    private let state = Locked(State())

    /// How many values may wait before each key keeps only its latest; up to this many posted values all apply.
    static let waitingLimit = 8_192
    /// How many values one delivery task applies before it lets the main actor run other work.
    static let batchLimit = 1_024

    /// How many values wait.
    var count: Int { state.withLock { $0.pending.count } }

    /// Sets the center to deliver to. Called once, by the center's initializer.
    func connect(_ center: FunctionCenter) {
        state.withLock { $0.center = center }
    }

    /// Appends `delivery` for `key`, and wakes the center on the main actor if nothing else will. When the center is
    /// gone, the queue is emptied instead; when `waitingLimit` values wait, each key keeps only its latest.
    func post(_ delivery: @escaping Delivery, to key: PostedKey) {
        let (wake, dropped) = state.withLock { state -> (FunctionCenter?, [Waiting]) in
            guard let center = state.center else {
                var dropped: [Waiting] = []
                swap(&dropped, &state.pending)
                return (nil, dropped)
            }
            state.pending.append(Waiting(key: key, delivery: delivery))
            var dropped: [Waiting] = []
            if state.pending.count >= state.coalesceAt {
                dropped = Self.coalesce(&state.pending)
                state.coalesceAt = max(Self.waitingLimit, 2 * state.pending.count)
            }
            guard !state.wakeScheduled else { return (nil, dropped) }
            state.wakeScheduled = true
            return (center, dropped)
        }
        withExtendedLifetime(dropped) {}  // The values dropped are released outside the lock.
        guard let wake else { return }
        Self.schedule(wake)
    }

    /// Keeps the latest value of each key, in the place of its latest post, and returns the others.
    private static func coalesce(_ pending: inout [Waiting]) -> [Waiting] {
        var seen = Set<PostedKey>()
        var kept: [Waiting] = []
        var dropped: [Waiting] = []
        for waiting in pending.reversed() {
            if seen.insert(waiting.key).inserted { kept.append(waiting) } else { dropped.append(waiting) }
        }
        pending = kept.reversed()
        return dropped
    }

    /// Starts a main-actor task that applies the next batch.
    private static func schedule(_ center: FunctionCenter) {
        Task { @MainActor [weak center] in
            center?.deliverBatch()
        }
    }

    /// Takes at most `batchLimit` deliveries, oldest first, for the delivery task; it must then call
    /// `scheduleNext(_:)`. When none wait, the chain of delivery tasks ends, and the next post starts one.
    func takeBatch() -> [Delivery] {
        state.withLock { state in
            if state.pending.isEmpty {
                state.wakeScheduled = false
                state.coalesceAt = Self.waitingLimit
                return []
            }
            let count = min(Self.batchLimit, state.pending.count)
            let taken = state.pending[..<count].map { $0.delivery }
            state.pending.removeFirst(count)
            return taken
        }
    }

    /// Continues the chain of delivery tasks after a batch: the next task takes the next batch, or ends the chain.
    func scheduleNext(_ center: FunctionCenter) {
        Self.schedule(center)
    }

    /// Takes every pending delivery, oldest first, for ``FunctionCenter/deliverPending()``. The chain of delivery
    /// tasks, if one runs, goes on: it ends when it finds nothing to take.
    func takeAll() -> [Delivery] {
        state.withLock { state in
            if state.pending.isEmpty { return [] }
            var taken: [Waiting] = []
            swap(&taken, &state.pending)
            state.coalesceAt = Self.waitingLimit
            return taken.map { $0.delivery }
        }
    }

    /// Drops every pending delivery; for a center that is going away.
    func close() {
        let dropped = state.withLock { state -> [Waiting] in
            state.center = nil
            var dropped: [Waiting] = []
            swap(&dropped, &state.pending)
            return dropped
        }
        withExtendedLifetime(dropped) {}  // The captured values are released outside the lock.
    }
}
