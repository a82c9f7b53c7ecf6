import ServiceHive

/// One posted value on its way to the main actor: applies it to the center it is delivered to.
typealias Delivery = @MainActor @Sendable (FunctionCenter) -> Void

/// The values posted to one ``FunctionCenter`` and not yet applied, first in, first out.
///
/// Any thread or task appends; the main actor takes them all, in order, and applies them. The order of the queue is
/// the order in which posts took the lock, so the values one thread or task posts apply in the order it posted them.
/// Waking the main actor is separate from ordering: the first post into an empty queue starts one main-actor task,
/// which takes whatever is queued when it runs, so it doesn't matter in which order such tasks start.
final class Inbox: Sendable {
    private struct State {
        /// The posted values, oldest first.
        var pending: [Delivery] = []
        /// Whether a main-actor task will take `pending`; the next post into an empty queue starts one when not.
        var wakeScheduled = false
        /// The center to deliver to, held weakly: a poster does not keep its center alive.
        weak var center: FunctionCenter?
    }

    // Guards `pending`, `wakeScheduled` and `center`.
    private let state = Locked(State())

    /// Sets the center to deliver to. Called once, by the center's initializer.
    func connect(_ center: FunctionCenter) {
        state.withLock { $0.center = center }
    }

    /// Appends `delivery`, and wakes the center on the main actor if nothing else will. When the center is gone, the
    /// queue is emptied instead.
    func post(_ delivery: @escaping Delivery) {
        let (wake, dropped) = state.withLock { state -> (FunctionCenter?, [Delivery]) in
            guard let center = state.center else {
                var dropped: [Delivery] = []
                swap(&dropped, &state.pending)
                return (nil, dropped)
            }
            state.pending.append(delivery)
            guard !state.wakeScheduled else { return (nil, []) }
            state.wakeScheduled = true
            return (center, [])
        }
        withExtendedLifetime(dropped) {}  // The values of a center that is gone are released outside the lock.
        guard let wake else { return }
        Task { @MainActor [weak wake] in
            wake?.deliverPending()
        }
    }

    /// Takes every pending delivery, oldest first. When there are none, the next post wakes the center again.
    func takeAll() -> [Delivery] {
        state.withLock { state in
            if state.pending.isEmpty {
                state.wakeScheduled = false
                return []
            }
            var taken: [Delivery] = []
            swap(&taken, &state.pending)
            return taken
        }
    }

    /// Drops every pending delivery; for a center that is going away.
    func close() {
        let dropped = state.withLock { state -> [Delivery] in
            state.center = nil
            var dropped: [Delivery] = []
            swap(&dropped, &state.pending)
            return dropped
        }
        withExtendedLifetime(dropped) {}  // The captured values are released outside the lock.
    }
}
