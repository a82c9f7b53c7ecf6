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
    /// Whether this is a `WeakInstance`, the instance of a `.weak` registration.
    let isWeak: Bool

    init(dependencies: Dependencies, isWeak: Bool) {
        self.dependencies = dependencies
        self.isWeak = isWeak
    }
}

/// An instance of a `Value`: a service, or a collection's values.
@usableFromInline
final class Box<Value>: Instance, @unchecked Sendable {
    // Sendable: as `Instance`; `value` never changes after init.
    @usableFromInline let value: Value

    init(_ value: Value, dependencies: Dependencies = .none) {
        self.value = value
        super.init(dependencies: dependencies, isWeak: false)
    }
}

/// The instance of a `.weak` registration: a weak reference to its object, with the service value it was built as.
///
/// A resolve returns the service, not the object: a class reference, or an existential whose one reference is the
/// object. Casting the object back to the service looks its conformance up in the runtime's cache on every resolve,
/// which costs about 970 instructions and writes the cache's count of readers, which every thread shares
/// (`Benchmarks/count-instructions 31`: 1,336 instructions a resolve with the cast). So the value's bits are kept
/// beside the reference, inline, without holding the object, and copied out as a `Service` while a strong reference
/// loaded from `object` keeps the object alive: then they are the bits of a valid value. A service too large for them,
/// an existential of several protocols that are not class-bound, is cast.
///
/// A class of its own, not a `Box` of a struct: read through a `Box`, the struct was copied whole, and copying a weak
/// reference writes the object's side table.
final class WeakInstance: Instance, @unchecked Sendable {
    // Sendable: as `Instance`; nothing changes after init, but the weak reference, which the runtime makes nil
    // atomically when the object goes.
    weak var object: AnyObject?
    /// The bits of the service value as built, when `fits`; read only through `service(as:holding:)`.
    private let bits: (UInt, UInt, UInt, UInt, UInt)
    private let fits: Bool

    /// The instance of `value`, whose one reference is `object`.
    init<Service>(_ value: Service, object: AnyObject, dependencies: Dependencies) {
        self.object = object
        var bits: (UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0)
        fits = MemoryLayout<Service>.size <= MemoryLayout.size(ofValue: bits)
        if fits {
            withUnsafeMutableBytes(of: &bits) { raw in withUnsafeBytes(of: value) { raw.copyMemory(from: $0) } }
        }
        self.bits = bits
        super.init(dependencies: dependencies, isWeak: true)
    }

    /// The service, as built, while the caller holds `object`, a strong reference it loaded from ``object``.
    /// `Service` must be the type it was built as.
    func service<Service>(as _: Service.Type, holding object: AnyObject) -> Service {
        guard fits else { return object as! Service }  // Safe: it was built as one.
        // Safe: while `object` is held, the bits are those of a valid `Service`, whose reference is `object`; the copy
        // retains it for the caller.
        let service = withUnsafePointer(to: bits) { UnsafeRawPointer($0).load(as: Service.self) }
        _fixLifetime(object)
        return service
    }
}
