/// A key's state, as the center keeps it without knowing the key's types.
@MainActor
protocol AnyKeyState: AnyObject {}

/// What the center keeps for one key: its function, once found, its last delivered value, its members in the order
/// they were attached, and what observes it: its observed value and its sequences.
@MainActor
final class KeyState<Control: AnyObject, Value: Sendable>: AnyKeyState {
    let key: FunctionKey<Control, Value>
    /// The function, found in the hive when the first control was attached, and kept.
    var function: BusinessFunction<Control, Value>?
    /// The last value delivered to the key, for controls attached later when the function has no current value.
    var latest: Value?
    /// The members, in the order they were attached, including released and detached ones not swept yet.
    var members: [Member<Control, Value>] = []
    /// The length `members` may reach before an attach sweeps it, so that attaching and detaching without posting
    /// can't grow it without bound.
    var sweepThreshold = KeyState.minimumSweepThreshold

    /// The key's observed value, shared by all its readers and held weakly; `nil` when none was made, or once the one
    /// made was released and swept.
    var observed: Weak<ObservedFunction<Value>>?
    /// The key's sequences, held weakly, in the order they were made, including released and cancelled ones not swept
    /// yet.
    var streams: [Weak<ValueStream<Value>>] = []
    /// The length `streams` may reach before a new sequence sweeps it, as `sweepThreshold` does for `members`.
    var streamSweepThreshold = KeyState.minimumSweepThreshold

    static var minimumSweepThreshold: Int { 64 }

    init(key: FunctionKey<Control, Value>) {
        self.key = key
    }

    /// A state goes away with its center: its sequences end, after the value each holds.
    deinit {
        for stream in streams { stream.object?.close() }
    }

    // MARK: - Observers

    /// Whether anything observes the key: a post then delivers to it, after the controls.
    var isObserved: Bool { observed != nil || !streams.isEmpty }

    /// Delivers a posted value to the key's observed value, then to its sequences, in the order they were made, and
    /// forgets the ones released or cancelled.
    ///
    /// The observers as they are now: one made by the observation this runs got the current value already.
    func deliverToObservers(_ value: Value) {
        let streams = streams
        if let observed {
            if let object = observed.object {
                object.receive(value)
            } else {
                self.observed = nil
            }
        }
        var ended = false
        for stream in streams {
            if stream.object?.deliver(value) != true { ended = true }
        }
        if ended { sweepStreams() }
    }

    /// Adds a sequence's stream, sweeping the streams first when they have grown.
    func add(_ stream: ValueStream<Value>) {
        if streams.count >= streamSweepThreshold { sweepStreams() }
        streams.append(Weak(stream))
    }

    /// Drops the streams that are released or cancelled, keeping the order of the rest.
    func sweepStreams() {
        streams.removeAll { $0.object?.isCancelled ?? true }
        streamSweepThreshold = max(Self.minimumSweepThreshold, streams.count * 2)
    }
}

/// An object, held weakly.
struct Weak<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}

extension Weak: Sendable where Object: Sendable {}
