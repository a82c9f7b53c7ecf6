import Observation

/// The current value of a business function as an `Observable` object, for SwiftUI views and any other code that
/// reads it with Observation.
///
/// ``FunctionCenter/observed(_:)`` gives it. Every post to the key that changes the value updates ``value`` on the main
/// actor, and SwiftUI redraws the views that read it, as a joined control would be updated:
///
/// ```swift
/// struct CartButton: View {
///     let count: ObservedFunction<Int>  // try center.observed(.cartBadge), made once and shared
///
///     var body: some View {
///         Label("Cart", systemImage: "cart").badge(count.value ?? 0)
///     }
/// }
/// ```
///
/// **One per key.** A center makes one observed value for a key, and ``FunctionCenter/observed(_:)`` gives every
/// caller that same object: any number of views read it, and a post updates it once, however many read it. It starts
/// with the key's current value, as a joining control does, and every post since keeps it current.
///
/// **What a post does.** A value posted to the key is delivered to the key's controls first, through the function
/// and their hooks, then to its observed value, in the order the values were posted. The observed value takes every
/// delivered value except one that changes nothing: when `Value` is `Equatable`, a value equal to ``value`` is not
/// stored and triggers no observation. The function's `shouldUpdate` and `update`, and delegates, belong to controls
/// and do not run for it: a view decides how to show the value, and with Observation, what to redraw.
///
/// **Lifetime.** The center holds it weakly, as it holds controls: once the last reader lets it go, it is released,
/// and its key forgets it at its next post. It does not keep the center alive; once the center is released, it keeps
/// its last value.
@MainActor
public final class ObservedFunction<Value: Sendable>: Observable {
    /// The function's current value: the last value delivered to the key, or its current value when this object
    /// was made; `nil` until the key has one.
    ///
    /// Reading it in a SwiftUI body, or inside `withObservationTracking`, tracks it: the next post that changes it
    /// redraws the view, or calls `onChange`.
    ///
    /// ```swift
    /// Text(count.value.map(String.init) ?? "–")
    /// ```
    public var value: Value? {
        registrar.access(self, keyPath: \.value)
        return stored
    }

    /// The value ``value`` gives, read and written without registering a read, so that a delivery doesn't register
    /// one in the tracking of whoever posted.
    private var stored: Value?

    /// Whether two values are equal, when `Value` is `Equatable`: a delivered value equal to the stored one changes
    /// nothing. Set by the `observed(_:)` for an `Equatable` value.
    var isEqual: ((Value, Value) -> Bool)?

    /// What Observation needs to track ``value``: the `Observable` conformance that `@Observable` writes, written out so
    /// that a delivery can compare values before it tells the registrar.
    private let registrar = ObservationRegistrar()

    init(value: Value?, isEqual: ((Value, Value) -> Bool)?) {
        stored = value
        self.isEqual = isEqual
    }

    /// Takes a delivered value, unless it changes nothing; Observation sees one change when it is taken.
    func receive(_ value: Value) {
        if let isEqual, let stored, isEqual(stored, value) { return }
        registrar.withMutation(of: self, keyPath: \.value) { stored = value }
    }
}
