/// A key's state, as the center keeps it without knowing the key's types.
@MainActor
protocol AnyKeyState: AnyObject {}

/// What the center keeps for one key: its function, once found, its last delivered value, its members in the order
/// they were attached, and what observes it: its observed value and its sequences.
@MainActor
final class KeyState<Control: AnyObject, Value: Sendable>: AnyKeyState {
    let key: FunctionKey<Control, Value>
    /// The function, found in the hive when the first control or observer joined, and kept.
    var function: BusinessFunction<Control, Value>?
    /// The last value delivered to the key, for controls and observers that join later when the function has no
    /// current value.
    var latest: Value?
    /// The members, in the order they were attached, including released and detached ones not swept yet.
    var members: [Member<Control, Value>] = []
    /// Whether `members` is not empty, so that a post to a key that only observers follow skips the loop over the
    /// members, and the copy of the function it needs: 618 instructions a post (`Benchmarks/count-instructions 27a`:
    /// 5,175 against 5,793). A flag rather than `members.isEmpty`, which in this generic class is a call that asks the
    /// runtime for the array's metadata: it cost every post 590 instructions (27b: 5,836 against 5,244).
    var hasMembers = false
    /// The length `members` may reach before an attach sweeps it, so that attaching and detaching without posting
    /// can't grow it without bound.
    var sweepThreshold = KeyState.minimumSweepThreshold

    /// The key's observed value, shared by all its readers, held weakly.
    weak var observed: ObservedFunction<Value>?
    /// Whether `observed` was set and not swept since: a weak reference keeps a little of a released object until it
    /// is set to `nil`.
    var holdsObserved = false
    /// The key's sequences, held weakly, in the order they were made, including released and cancelled ones not swept
    /// yet.
    ///
    /// A `ContiguousArray`, not an `Array`: a loop over an `Array` here makes the optimizer stop inlining the bounds
    /// check of the loop over `members`, which then costs 8 instructions more a control (`Benchmarks/count-instructions
    /// 20`: 3,057,519 instructions, not 2,977,519).
    var streams: ContiguousArray<Weak<ValueStream<Value>>> = []
    /// Whether `streams` is not empty.
    var holdsStreams = false
    /// The length `streams` may reach before a new sequence sweeps it, as `sweepThreshold` does for `members`.
    var streamSweepThreshold = KeyState.minimumSweepThreshold
    /// Whether an observed value or a sequence, released or not, is not swept yet: a post then delivers to them, after
    /// the controls. Read from the flags, not from `observed` and `streams`, for the reason `hasMembers` gives: reading
    /// those at each post cost every post 2,983 instructions (`Benchmarks/count-instructions 27b`, in a first version).
    var isObserved: Bool { holdsObserved || holdsStreams }

    static var minimumSweepThreshold: Int { 64 }

    init(key: FunctionKey<Control, Value>) {
        self.key = key
    }

    /// A state goes away with its center: its sequences end, after the value each holds.
    deinit {
        for stream in streams { stream.object?.close() }
    }

    // MARK: - Observers

    /// Makes `observed` the key's observed value.
    func setObserved(_ observed: ObservedFunction<Value>) {
        self.observed = observed
        holdsObserved = true
    }

    /// Adds a sequence's stream, sweeping the streams first when they have grown.
    func add(_ stream: ValueStream<Value>) {
        if streams.count >= streamSweepThreshold { sweepStreams() }
        streams.append(Weak(stream))
        holdsStreams = true
    }

    /// Delivers a posted value to the key's observed value, then to its sequences, in the order they were made, and
    /// forgets the ones released or cancelled.
    func deliverToObservers(_ value: Value) {
        guard holdsStreams else { return deliverToObserved(value) }
        // The sequences as they are now: one made by an observation of the observed value got the value already.
        let streams = streams
        deliverToObserved(value)
        var ended = false
        for stream in streams {
            if stream.object?.deliver(value) != true { ended = true }
        }
        if ended { sweepStreams() }
    }

    /// Delivers a posted value to the key's observed value, or forgets it once it is released. Inlined into each post:
    /// called, `Benchmarks/count-instructions 27a` costs 5,334,776 instructions per 1,000 posts, not 5,319,776.
    @inline(__always)
    private func deliverToObserved(_ value: Value) {
        guard holdsObserved else { return }
        if let observed {
            observed.receive(value)
        } else {
            self.observed = nil
            holdsObserved = false
        }
    }

    /// Drops the streams that are released or cancelled, keeping the order of the rest.
    func sweepStreams() {
        streams.removeAll { $0.object?.isCancelled ?? true }
        streamSweepThreshold = max(Self.minimumSweepThreshold, streams.count * 2)
        holdsStreams = !streams.isEmpty
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
