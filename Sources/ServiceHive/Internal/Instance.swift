/// A cached instance and what it was built from. Its one subclass, `Box`, holds the value, so that a slot holds a
/// single reference, which can leave a lock as a `Sendable` value.
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
final class Box<Value>: Instance, @unchecked Sendable {
    // Sendable: as `Instance`; `value` never changes after init.
    let value: Value

    init(_ value: Value, dependencies: Dependencies = .none) {
        self.value = value
        super.init(dependencies: dependencies, isWeak: Value.self == WeakReference.self)
    }
}

/// The weak reference of a `.weak` instance, held in a `Box<WeakReference>`.
struct WeakReference {
    weak var object: AnyObject?
}
