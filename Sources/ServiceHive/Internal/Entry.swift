/// One registration, or one override: what it builds, how long its instances live, and where it was made.
///
/// Immutable. The instances it builds are cached beside it, in a `Record`'s slot or an override layer's cache.
final class Entry: Sendable {
    let key: RegistrationKey
    let scope: ServiceHive.Scope
    /// How the resolution path treats the scope: a trivial enum, cheaper to switch on than `scope`. For an async
    /// factory, `.async`: only `resolveAsync` builds it, as `scope` says.
    let lifetime: Lifetime
    let serviceType: Any.Type
    let argumentTypes: [Any.Type]
    let site: ServiceHive.RegistrationSite
    /// A `Factory<Service>` for the `serviceType` of this entry.
    let factory: any ErasedFactory
    /// For `register(_:name:instance:)`: the `Box<Service>` every resolve returns.
    let instance: Instance?
    /// Whether the factory is `async`.
    let isAsync: Bool
    /// Whether a post-construction hook runs after the factory.
    let hasCompletedHook: Bool
    /// For `forward(_:name:to:named:file:line:as:)`: the key of the registration it forwards to, in the same hive, and
    /// that key as introspection prints it.
    let target: RegistrationKey?
    let targetServiceKey: ServiceHive.ServiceKey?
    /// Whether the service is an existential registered where it was not known to be `Sendable`: its instances may
    /// not be, so a resolve that requires `Sendable` refuses it. See `Sendability`.
    let unsureSendable: Bool

    init<Service>(
        _: Service.Type,
        name: String?,
        scope: ServiceHive.Scope,
        arguments: ArgumentSignature? = nil,
        argumentTypes: [Any.Type] = [],
        site: ServiceHive.RegistrationSite,
        factory: Factory<Service>,
        instance: Instance? = nil,
        target: (key: RegistrationKey, printed: ServiceHive.ServiceKey)? = nil,
        sendable: Sendability
    ) {
        key = RegistrationKey(Service.self, name: name, arguments: arguments)
        unsureSendable = sendable.isUnsure(for: Service.self)
        self.scope = scope
        lifetime = factory.makeAsync != nil ? .async : target != nil ? .forward : Lifetime(scope)
        isAsync = factory.makeAsync != nil
        hasCompletedHook = factory.completed != nil
        serviceType = Service.self
        self.argumentTypes = argumentTypes
        self.site = site
        self.factory = factory
        self.instance = instance
        self.target = target?.key
        targetServiceKey = target?.printed
    }

    /// An entry for an instance that already exists: a singleton, cached from the start. Its factory returns the
    /// instance; the resolution path returns the box before it would call it.
    convenience init<Service>(
        _: Service.Type, name: String?, instance: Service, site: ServiceHive.RegistrationSite, sendable: Sendability
    ) {
        let box = Box(instance)
        self.init(
            Service.self, name: name, scope: .singleton, site: site, factory: Factory { _, _ in box.value },
            instance: box, sendable: sendable)
    }

    /// The factory, typed. `Service` must be this entry's service type.
    @inline(__always)
    func factory<Service>(of _: Service.Type) -> Factory<Service> {
        // Safe: the designated initializer, through which every entry is made, stores a `Factory<Service>` under a
        // key derived from `Service.self`, and callers look entries up by that key.
        unsafeDowncast(factory, to: Factory<Service>.self)
    }

    /// Runs the factory. `Service` must be this entry's service type.
    @inline(__always)
    func make<Service>(
        _: Service.Type,
        _ resolver: ServiceHive.Resolver,
        _ arguments: UnsafeRawPointer?
    ) throws -> Service {
        // Unmanaged: the factory is a `let` of this entry, which the caller holds, so it and its closure outlive the
        // call. Through a guaranteed reference, the call retains neither; through a strong one, the closure's
        // context is retained and released around every build. `Benchmarks/count-instructions 01`: 948 → 903.
        try Unmanaged.passUnretained(factory(of: Service.self))._withUnsafeGuaranteedRef {
            try $0.make(resolver, arguments)
        }
    }

    /// The printable key; built on error and introspection paths only.
    var serviceKey: ServiceHive.ServiceKey {
        ServiceHive.ServiceKey(
            service: typeName(serviceType), name: key.name, argumentTypes: argumentTypes.map(typeName))
    }
}

/// How the resolution path treats a scope.
enum Lifetime: Sendable {
    case transient, graph, weak
    /// `.singleton` and named scopes: one instance, cached.
    case shared
    /// Built by an async factory, whatever the scope.
    case async
    /// Forwarded to another registration of the same hive: built as a transient that resolves the target.
    case forward

    init(_ scope: ServiceHive.Scope) {
        switch scope.kind {
        case .transient: self = .transient
        case .graph: self = .graph
        case .weak: self = .weak
        case .singleton, .named: self = .shared
        }
    }
}

/// The name ServiceHive prints for a type: `TradeService` for `any TradeService`, `Int` for `Swift.Int`.
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}
