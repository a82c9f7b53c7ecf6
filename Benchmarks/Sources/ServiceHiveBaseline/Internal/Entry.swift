/// The key a registration is stored under in a ``Registry``.
struct RegistrationKey: Hashable {
    let service: ObjectIdentifier
    let name: String?
    let arguments: ArgumentSignature?

    /// Whether this is the unnamed registration without arguments, the one stored in the fast table.
    var isPlain: Bool { name == nil && arguments == nil }
}

/// What a hive keeps for one registration (or one override) between resolves.
enum Slot {
    /// Nothing is cached.
    case empty
    /// A thread is running the factory; others wait for it on the ``Construction``.
    case building(Construction)
    /// The cached instance, boxed in a `Box<Service>`.
    case instance(AnyObject)
    /// A weakly held instance.
    case weak(WeakBox)
}

/// A strong box for a cached instance.
final class Box<Value>: @unchecked Sendable {
    // Sendable: no lock, because `value` is immutable after init. Handing one shared instance to every thread is
    // what a singleton is; `ServiceHive.Scope.singleton` documents that the instance itself must be thread-safe.
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A weak box for a `.weak` instance.
final class WeakBox {
    // Written once in init; read through the runtime's thread-safe weak-reference load.
    @exclusivity(unchecked) weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// One registration or override: what it builds, how long its instances live and where it came from.
///
/// Everything but `slot` and `isRemoved` is immutable after init.
class Entry: @unchecked Sendable {
    // Sendable: `slot`, `instanceBox`, `isRemoved` and `sequence` are guarded by the owning hive family's
    // `HiveFamily.lock`; every other stored property is a `let`.
    let key: RegistrationKey
    let scope: ServiceHive.Scope
    let serviceType: Any.Type
    let argumentTypes: [Any.Type]
    let site: ServiceHive.RegistrationSite
    /// Registration order within the family, for stable listings. Set once, under `HiveFamily.lock`, before the
    /// entry is stored.
    @exclusivity(unchecked) var sequence: UInt64 = 0

    /// The cached instance for `.singleton` and `.weak`. Guarded by `HiveFamily.lock`; changed only through
    /// `replaceSlot(with:)`.
    @exclusivity(unchecked) private(set) var slot: Slot = .empty
    /// An unretained copy of the box in `slot` when it holds `.instance`, so that the hot path reads a cached
    /// instance without retaining the box. `slot` keeps the box alive. Guarded by `HiveFamily.lock`.
    @exclusivity(unchecked) private(set) var instanceBox: Unmanaged<AnyObject>?
    /// Set when the registration is unregistered or rolled back. Guarded by `HiveFamily.lock`.
    @exclusivity(unchecked) var isRemoved = false

    init(
        key: RegistrationKey,
        scope: ServiceHive.Scope,
        serviceType: Any.Type,
        argumentTypes: [Any.Type],
        site: ServiceHive.RegistrationSite
    ) {
        self.key = key
        self.scope = scope
        self.serviceType = serviceType
        self.argumentTypes = argumentTypes
        self.site = site
    }

    /// Replaces the slot and returns the old one, which the caller releases after unlocking: releasing an
    /// instance runs its `deinit`, which may resolve. Called with `HiveFamily.lock` held.
    func replaceSlot(with new: Slot) -> Slot {
        let old = slot
        slot = new
        if case .instance(let box) = new {
            instanceBox = .passUnretained(box)
        } else {
            instanceBox = nil
        }
        return old
    }

    /// Resolves this registration's key from `hive`, for `ServiceHive.validate()`.
    func resolveForValidation(from hive: ServiceHive) throws(ServiceHiveError) {
        preconditionFailure("TypedEntry, the only subclass of Entry, overrides this")
    }

    /// The printable key; built only on error and introspection paths.
    var serviceKey: ServiceHive.ServiceKey {
        ServiceHive.ServiceKey(
            service: typeName(serviceType),
            name: key.name,
            argumentTypes: argumentTypes.map(typeName)
        )
    }

}

/// A registration whose factory builds a `Service`.
///
/// `TypedEntry` is the only subclass of `Entry`, and its initializer derives the key's service identifier from
/// `Service.self` itself. So an entry stored under `ObjectIdentifier(S.self)` is always a `TypedEntry<S>`, which
/// is what makes the resolution path's `unsafeDowncast` to `TypedEntry<S>` safe. Likewise the factory closure was
/// built for exactly the argument tuple that `key.arguments` names.
final class TypedEntry<Service>: Entry, @unchecked Sendable {
    // Sendable: the factories are immutable; the inherited mutable state is guarded as `Entry` says.

    /// The factory, in one of three forms, stored as the caller wrote it so that building calls it directly, with
    /// no wrapping closure in between. `form` says which field holds it; the other two hold a closure that traps.
    /// The fields are not optionals on purpose: calling a closure taken out of an `Optional` of a generic function
    /// type makes specialized callers allocate a reabstraction thunk on every call.
    let form: Form
    let plainFactory: @Sendable () throws -> Service
    let resolverFactory: @Sendable (ServiceHive.Resolver) throws -> Service
    /// The raw pointer points at the runtime arguments, laid out by `ArgumentPack.store` for exactly the types in
    /// `argumentTypes`.
    let argumentFactory: @Sendable (ServiceHive.Resolver, UnsafeRawPointer) throws -> Service

    /// Which factory field holds the factory.
    enum Form {
        case plain, resolver, arguments
    }

    init(
        name: String?,
        arguments: ArgumentSignature?,
        scope: ServiceHive.Scope,
        argumentTypes: [Any.Type],
        site: ServiceHive.RegistrationSite,
        factory: Factory
    ) {
        // The unused forms get closures that capture nothing, so they cost no allocation.
        switch factory {
        case .plain(let make):
            (form, plainFactory) = (.plain, make)
            resolverFactory = { _ in preconditionFailure("an entry calls only its own form of factory") }
            argumentFactory = { _, _ in preconditionFailure("an entry calls only its own form of factory") }
        case .resolver(let make):
            (form, resolverFactory) = (.resolver, make)
            plainFactory = { preconditionFailure("an entry calls only its own form of factory") }
            argumentFactory = { _, _ in preconditionFailure("an entry calls only its own form of factory") }
        case .arguments(let make):
            (form, argumentFactory) = (.arguments, make)
            plainFactory = { preconditionFailure("an entry calls only its own form of factory") }
            resolverFactory = { _ in preconditionFailure("an entry calls only its own form of factory") }
        }
        super.init(
            key: RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: arguments),
            scope: scope,
            serviceType: Service.self,
            argumentTypes: argumentTypes,
            site: site
        )
    }

    /// Runs the factory.
    ///
    /// - Parameters:
    ///   - view: The hive the factory's resolver resolves from.
    ///   - arguments: The runtime arguments, for a registration that takes them.
    @inline(__always)
    func make(view: ServiceHive, arguments: UnsafeRawPointer?) throws -> Service {
        switch form {
        case .plain:
            return try plainFactory()
        case .resolver:
            return try resolverFactory(ServiceHive.Resolver(hive: view))
        case .arguments:
            // Safe: an entry that takes arguments is found only under a key with an argument signature, and the
            // resolution path checks its exact types, then passes arguments laid out for them.
            return try argumentFactory(ServiceHive.Resolver(hive: view), arguments.unsafelyUnwrapped)
        }
    }

    override func resolveForValidation(from hive: ServiceHive) throws(ServiceHiveError) {
        _ = try hive.resolveService(Service.self, name: key.name)
    }

    /// The three factory forms.
    enum Factory {
        case plain(@Sendable () throws -> Service)
        case resolver(@Sendable (ServiceHive.Resolver) throws -> Service)
        case arguments(@Sendable (ServiceHive.Resolver, UnsafeRawPointer) throws -> Service)
    }
}
