import ServiceHive

/// The values delivered to one ``FunctionValues`` sequence and not yet taken: at most one, the latest.
///
/// The main actor delivers; the consumer's task takes, from any thread. A delivery that finds the consumer waiting
/// hands it the value at once; otherwise it replaces the value waiting, if any, so that a slow consumer gets the
/// latest value and the buffer never holds more than one.
final class ValueStream<Value: Sendable>: Sendable {
    private struct State {
        /// The value the consumer gets next; never set while `waiter` is.
        var pending: Value?
        /// The consumer, waiting in `next`; never set while `pending` is.
        var waiter: CheckedContinuation<Value?, Never>?
        /// Whether the consumer's task was cancelled: the sequence has ended, and takes nothing more.
        var isCancelled = false
        /// Whether the center is gone: no value will come after `pending`.
        var isClosed = false
    }

    // Guards `pending`, `waiter`, `isCancelled` and `isClosed`.
    private let state: Locked<State>

    /// A stream whose first value is `initial`, when there is one.
    init(initial: Value?) {
        state = Locked(State(pending: initial))
    }

    // MARK: - Delivering, on the main actor

    /// Hands `value` to the consumer, or keeps it for its next `next`, in place of an older value.
    ///
    /// - Returns: `false` when the consumer's task was cancelled: the center can forget this stream.
    func deliver(_ value: Value) -> Bool {
        let (waiter, replaced, isOpen) = state.withLock {
            state -> (CheckedContinuation<Value?, Never>?, Value?, Bool) in
            if state.isCancelled { return (nil, nil, false) }
            if let waiter = state.waiter.take() { return (waiter, nil, true) }
            let replaced = state.pending.take()
            state.pending = value
            return (nil, replaced, true)
        }
        withExtendedLifetime(replaced) {}  // An older value is released outside the lock.
        waiter?.resume(returning: value)
        return isOpen
    }

    /// Ends the stream after the value it holds, if any: its center is gone.
    func close() {
        let waiter = state.withLock { state in
            state.isClosed = true
            return state.waiter.take()
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the consumer's task was cancelled.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// How many values wait for the consumer: 0 or 1. For the tests of the bound.
    var buffered: Int {
        state.withLock { $0.pending == nil ? 0 : 1 }
    }

    // MARK: - Taking, in the consumer's task

    /// The next value: the one waiting, or else the next one delivered; `nil` once the consumer's task is cancelled,
    /// or once the center is gone and nothing waits.
    ///
    /// - Precondition: No other call is waiting: a sequence is iterated by one task at a time.
    func next(isolation actor: isolated (any Actor)?) async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Value?, Never>) in
                let ready = state.withLock { state -> Value?? in
                    if state.isCancelled { return .some(nil) }
                    if let value = state.pending.take() { return .some(value) }
                    if state.isClosed { return .some(nil) }
                    precondition(
                        state.waiter == nil,
                        "A FunctionValues sequence was iterated from two tasks at once. To fix, iterate it from one "
                            + "task; for a second consumer, call values(_:) again.")
                    state.waiter = continuation
                    return .none
                }
                if case .some(let value) = ready { continuation.resume(returning: value) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the stream at once, dropping the value it holds: the consumer's task was cancelled.
    private func cancel() {
        let (waiter, dropped) = state.withLock { state in
            state.isCancelled = true
            return (state.waiter.take(), state.pending.take())
        }
        withExtendedLifetime(dropped) {}  // Released outside the lock.
        waiter?.resume(returning: nil)
    }
}
