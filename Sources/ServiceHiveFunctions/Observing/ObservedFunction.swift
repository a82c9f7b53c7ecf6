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
        registrar.access(self, keyPath: valuePath)
        return stored.hasValue ? stored.pointer.pointee : nil
    }

    // MARK: - Storage

    /// The value ``value`` gives, read and written without registering a read, so that a delivery doesn't register
    /// one in the tracking of whoever posted.
    private let stored: ValueSlot<Value>

    // MARK: - Observation

    // The `Observable` conformance that `@Observable` would write, written out, so that a delivery compares values
    // before it tells the registrar, and reads and writes a `ValueSlot`.

    /// Keeps who tracks ``value``.
    private let registrar = ObservationRegistrar()

    /// `\.value`, made once: a key path of a generic class is made anew, from the type's mangled name, each time its
    /// expression runs. With `\.value` in place, a post to an observed value cost 23,000 instructions more than one to
    /// a control (`Benchmarks/count-instructions 27a 27b`, in a first version: 31,437 against 8,470).
    private let valuePath: KeyPath<ObservedFunction, Value?>

    /// An observed value that holds `value`, if any.
    init(value: Value?) {
        stored = makeSlot(value)
        valuePath = \.value
    }

    /// Takes a delivered value, unless it changes nothing; Observation sees one change when it is taken.
    func receive(_ value: Value) {
        if stored.holds(value) { return }
        registrar.willSet(self, keyPath: valuePath)
        stored.set(value)
        registrar.didSet(self, keyPath: valuePath)
    }
}

/// A slot that holds `value`, if any, and compares values with `==` when `Value` is `Equatable`, found at run time so
/// that generic code gets it too.
private func makeSlot<Value>(_ value: Value?) -> ValueSlot<Value> {
    guard let equatable = Value.self as? any Equatable.Type else { return ValueSlot(value) }
    return equatable.slot(holding: value)
}

extension Equatable {
    /// A slot of this type that holds `value`, given as a `Value?` that is a `Self?`.
    fileprivate static func slot<Value>(holding value: Value?) -> ValueSlot<Value> {
        // Safe: `makeSlot` calls this on `Value.self`, so `Value` is `Self`.
        EquatableSlot<Self>(value.map { $0 as! Self }) as! ValueSlot<Value>
    }
}

/// A `Value`, or none, in memory of its own, for ``ObservedFunction``.
///
/// Not a stored `Value?`: in a generic class, each copy or assignment of a `Value?` asks the runtime for the metadata of
/// `Optional<Value>`, which a `Value` doesn't need. With a `Value?` in the observed value, a post to it cost 1,061
/// instructions more (`Benchmarks/count-instructions 27a`: 6,236 against 5,175).
private class ValueSlot<Value> {
    /// The value, once `hasValue`.
    let pointer: UnsafeMutablePointer<Value>
    /// Whether `pointer` holds a value.
    private(set) var hasValue: Bool

    init(_ value: Value?) {
        pointer = .allocate(capacity: 1)
        hasValue = value != nil
        if let value { pointer.initialize(to: value) }
    }

    /// Whether the slot holds a value equal to `value`; `false` unless `Value` is `Equatable`.
    func holds(_ value: Value) -> Bool { false }

    /// Stores `value`, in place of the one held, if any.
    func set(_ value: Value) {
        if hasValue {
            pointer.pointee = value
        } else {
            pointer.initialize(to: value)
            hasValue = true
        }
    }

    deinit {
        if hasValue { pointer.deinitialize(count: 1) }
        pointer.deallocate()
    }
}

/// A slot of an `Equatable` value, which tells when it holds a value equal to another.
private final class EquatableSlot<Value: Equatable>: ValueSlot<Value> {
    override func holds(_ value: Value) -> Bool {
        hasValue && pointer.pointee == value
    }
}
