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
    // `ServiceHive.Scope` documents that such an instance must be safe to use from any thread. Unchecked because the
    // compiler can't check it: only a final class may conform to `Sendable` checked, and `Box` and `WeakInstance`
    // subclass this one; a `Box`'s value need not be `Sendable` at all, which is the documented contract above.
    let dependencies: Dependencies
    /// Whether this is a `WeakInstance`, the instance of a `.weak` registration.
    let isWeak: Bool

    init(dependencies: Dependencies, isWeak: Bool) {
        self.dependencies = dependencies
        self.isWeak = isWeak
    }

    /// A factory that returns this instance, for the entry of an instance that was registered or provided: a `Box`'s.
    func returningMaker() -> any ErasedMaker { preconditionFailure("only a box is registered as an instance") }

    /// The registration of this instance, given to a child hive (`Provision`): a `Box`'s.
    func providedEntry(name: String?, site: ServiceHive.RegistrationSite, sendable: Sendability) -> Entry {
        preconditionFailure("only a box is provided")
    }
}

/// An instance of a `Value`: a service, or a collection's values.
@usableFromInline
final class Box<Value>: Instance, @unchecked Sendable {
    // Sendable: as `Instance`; `value` never changes after init. Unchecked for the reason `WeakInstance` gives: a
    // subclass restates its superclass's unchecked conformance to `Sendable`, and a checked one may inherit only from
    // `NSObject`.
    @usableFromInline let value: Value

    init(_ value: Value, dependencies: Dependencies) {
        self.value = value
        super.init(dependencies: dependencies, isWeak: false)
    }

    /// The box of a value built from nothing: an instance registered or provided, or a collection's values.
    ///
    /// `@usableFromInline` for the inlinable `Provisions.provide`, which boxes what a request's child hive provides in
    /// the caller's code, where the box's type is known: in the engine's generic code, each box looked the metadata
    /// of `Box<Service>` up: 381 instructions (`Benchmarks/count-instructions 12`).
    @usableFromInline
    init(_ value: Value) {
        self.value = value
        super.init(dependencies: .none, isWeak: false)
    }

    override func returningMaker() -> any ErasedMaker { Maker(returning: self) }

    override func providedEntry(name: String?, site: ServiceHive.RegistrationSite, sendable: Sendability) -> Entry {
        Entry(Value.self, name: name, box: self, site: site, sendable: sendable)
    }
}

/// The instance of a `.weak` registration: a weak reference to its object, with the service value it was built as.
///
/// A resolve returns the service, not the object: a class reference, or an existential whose one reference is the
/// object. Casting the object back to the service looks its conformance up in the runtime's cache on every resolve,
/// which costs about 970 instructions and writes the cache's count of readers, which every thread shares
/// (`Benchmarks/count-instructions 31`: 1,336 instructions a resolve with the cast). So the value's bits are kept
/// beside the reference, inline, without holding the object, and copied out as a `Service` while a strong reference
/// loaded from `object` keeps the object alive: then they are the bits of a valid value. That holds only when the
/// value's first word is the object's own address, as it is for a class, a class-bound existential, and an `Any` or a
/// protocol existential that holds the object inline; the bits are kept only then. Any other service is cast: one too
/// large for the bits (an existential of several protocols that are not class-bound), and an `any Error`, whose one word
/// points at a box that holds the object, a box that only the value built ever owned.
///
/// A class of its own, not a `Box` of a struct: read through a `Box`, the struct was copied whole, and copying a weak
/// reference writes the object's side table.
final class WeakInstance: Instance, @unchecked Sendable {
    // Unchecked because the compiler can't check it here: a subclass must restate its superclass's `@unchecked
    // Sendable`, and a checked `Sendable` class may inherit from no class but `NSObject`. What it would check holds:
    // nothing changes after init but the weak reference, which the runtime clears atomically when the object goes.
    weak var object: AnyObject?
    /// The bits of the service value as built, when `keepsBits`; read only through `copiedService(as:holding:)`.
    private let bits: (UInt, UInt, UInt, UInt, UInt)
    /// Whether `bits` hold the service: it fits in them, and its first word is the object's address.
    let keepsBits: Bool

    /// The instance of `value`, whose one reference is `object`, the value as `AnyObject`.
    init<Service>(_ value: Service, object: AnyObject, dependencies: Dependencies) {
        self.object = object
        var bits: (UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0)
        var keepsBits = false
        if MemoryLayout<Service>.size <= MemoryLayout.size(ofValue: bits) {
            withUnsafeMutableBytes(of: &bits) { raw in withUnsafeBytes(of: value) { raw.copyMemory(from: $0) } }
            // Only the object's address is read: `Unmanaged` neither retains nor releases it.
            keepsBits = bits.0 == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        }
        self.bits = keepsBits ? bits : (0, 0, 0, 0, 0)
        self.keepsBits = keepsBits
        super.init(dependencies: dependencies, isWeak: true)
    }

    /// The service, as built, while the caller holds `object`, a strong reference it loaded from ``object``.
    /// `Service` must be the type it was built as.
    func service<Service>(as _: Service.Type, holding object: AnyObject) -> Service {
        keepsBits ? copiedService(as: Service.self, holding: object) : object as! Service  // Safe: built as one.
    }

    /// The service, copied from the bits, while the caller holds `object`; only when `keepsBits`.
    func copiedService<Service>(as _: Service.Type, holding object: AnyObject) -> Service {
        // Safe: while `object` is held, the bits are those of a valid `Service`, whose one reference, its first word,
        // is `object`; the copy retains it for the caller.
        let service = withUnsafePointer(to: bits) { UnsafeRawPointer($0).load(as: Service.self) }
        _fixLifetime(object)
        return service
    }
}
