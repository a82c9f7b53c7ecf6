/// The values delivered to a business function's key, as an `AsyncSequence`, for code that isn't UI: a widget's
/// timeline, a sync engine, a server's stream of events.
///
/// ``FunctionCenter/values(_:)`` gives it, from the moment it is called:
///
/// ```swift
/// let counts = try await center.values(.cartBadge)
/// for await count in counts {
///     await widget.reload(count)
/// }
/// ```
///
/// **What it yields.** First the key's current value, as a joining control gets it: the function's current value,
/// or else the last value delivered to the key, if either exists. Then each value delivered to the key, in the order
/// of posting, as its controls get them, equal ones included. Values posted before the sequence was made were
/// delivered before it, so none of them comes after the current value. A loop over it runs in its own task; the values are
/// delivered on the main actor, and wait for it there.
///
/// **Buffering.** At most one value waits: the latest. A consumer that is still busy with one value when several
/// more are delivered gets only the last of them next, never an older one, so a fast poster and a slow consumer never
/// grow memory. A consumer that keeps up gets every value.
///
/// **Ending.** It ends, `next()` returning `nil`, when the task that iterates it is cancelled, at once, dropping the
/// value that waits; and when its center is released, after the value that waits. The center holds it weakly, as it
/// holds controls: once the loop is done with it, its key forgets it at its next post.
///
/// Iterate it from one task: a second task that waits while the first does traps. For another consumer, call
/// ``FunctionCenter/values(_:)`` again.
public struct FunctionValues<Value: Sendable>: AsyncSequence, Sendable {
    /// The type of the values: the key's `Value`.
    public typealias Element = Value

    /// A sequence of a function's values never throws.
    public typealias Failure = Never

    /// The values not yet taken.
    let stream: ValueStream<Value>

    /// Makes the iterator that a `for await` loop uses.
    ///
    /// - Returns: An iterator over the values that the sequence has not yielded yet.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: stream)
    }

    /// Gives a function's values one at a time, waiting for the next one to be delivered.
    public struct Iterator: AsyncIteratorProtocol {
        /// The values not yet taken.
        let stream: ValueStream<Value>

        /// The next value: the one waiting, or else the next one delivered.
        ///
        /// - Returns: The value, or `nil` once the task is cancelled, or once the center is released and no value
        ///   waits.
        public mutating func next() async -> Value? {
            await stream.next(isolation: nil)
        }

        /// The next value, waiting on `actor`, the caller's: the one waiting, or else the next one delivered.
        ///
        /// - Parameter actor: The actor the caller runs on, for a loop on an actor to wait without leaving it.
        /// - Returns: The value, or `nil` once the task is cancelled, or once the center is released and no value
        ///   waits.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await stream.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension FunctionValues.Iterator: Sendable {}
