/// A cached instance and what it was built from. Its one subclass, `Box`, holds the value, so that a slot holds a
/// single reference, which can leave a lock as a `Sendable` value.
///
/// `@usableFromInline`, with `Box` and its `value`, for one reason: the inlinable `resolveAll` copies the values of a
/// collection's cached instances into the collection's snapshot in the caller's code, specialized for the element type,
/// where the engine's generic code copies each through its type's witnesses and looks the metadata of their array up
/// (`Benchmarks/count-instructions 28`, when it copied on every resolve: 2,117 instructions, not 3,291).
@usableFromInline
class Instance: @unchecked Sendable {
    // Sendable: immutable. Handing one shared instance to every thread is what a shared scope means;
    // `ServiceHive.Scope` documents that such an instance must be safe to use from any thread.
    let dependencies: Dependencies
    /// Whether this is a `Box<WeakReference>`, the instance of a `.weak` registration.
    let isWeak: Bool

    init(dependencies: Dependencies, isWeak: Bool) {
        self.dependencies = dependencies
        self.isWeak = isWeak
    }
}

/// An instance of a `Value`: a service, or for `.weak` a `WeakReference`.
@usableFromInline
final class Box<Value>: Instance, @unchecked Sendable {
    // Sendable: as `Instance`; `value` never changes after init.
    @usableFromInline let value: Value

    init(_ value: Value, dependencies: Dependencies = .none) {
        self.value = value
        super.init(dependencies: dependencies, isWeak: Value.self == WeakReference.self)
    }
}

/// The weak reference of a `.weak` instance, held in a `Box<WeakReference>`.
struct WeakReference {
    weak var object: AnyObject?
}
