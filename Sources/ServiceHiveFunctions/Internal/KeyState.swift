/// A key's state, as the center keeps it without knowing the key's types.
@MainActor
protocol AnyKeyState: AnyObject {}

/// What the center keeps for one key: its function, once found, its last delivered value, and its members in the
/// order they were attached.
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

    static var minimumSweepThreshold: Int { 64 }

    init(key: FunctionKey<Control, Value>) {
        self.key = key
    }
}
