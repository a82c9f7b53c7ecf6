/// What a `register` call asked for, before it is stored: everything but where it was made and its place in the
/// registration order, which `add` fills in. Hive registrations and override registrations both go through it.
struct PendingRegistration<Service> {
    let key: RegistrationKey
    private let scope: ServiceHive.Scope
    private let argumentTypes: [Any.Type]
    private let factory: TypedEntry<Service>.Factory
    private let prebuilt: Service?

    private init(
        name: String?,
        scope: ServiceHive.Scope,
        arguments: ArgumentSignature?,
        argumentTypes: [Any.Type],
        prebuilt: Service? = nil,
        factory: TypedEntry<Service>.Factory
    ) {
        key = RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: arguments)
        self.scope = scope
        self.argumentTypes = argumentTypes
        self.factory = factory
        self.prebuilt = prebuilt
    }

    /// The entry for this registration, made at `site`.
    func makeEntry(site: ServiceHive.RegistrationSite) -> Entry {
        let entry = TypedEntry<Service>(
            name: key.name,
            arguments: key.arguments,
            scope: scope,
            argumentTypes: argumentTypes,
            site: site,
            factory: factory
        )
        if let prebuilt { _ = entry.replaceSlot(with: .instance(Box(prebuilt))) }
        return entry
    }

    /// A factory without dependencies.
    init(name: String?, scope: ServiceHive.Scope, factory: @escaping @Sendable () throws -> Service) {
        self.init(name: name, scope: scope, arguments: nil, argumentTypes: [], factory: .plain(factory))
    }

    /// A factory that resolves its dependencies.
    init(
        name: String?,
        scope: ServiceHive.Scope,
        factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service
    ) {
        self.init(name: name, scope: scope, arguments: nil, argumentTypes: [], factory: .resolver(factory))
    }

    /// A factory with runtime arguments. The `@inlinable` `register` methods build it, specialized in the caller.
    init(
        name: String?,
        arguments: ArgumentSignature,
        argumentTypes: [Any.Type],
        factory: @escaping @Sendable (ServiceHive.Resolver, UnsafeRawPointer) throws -> Service
    ) {
        self.init(
            name: name, scope: .transient, arguments: arguments, argumentTypes: argumentTypes,
            factory: .arguments(factory))
    }

    /// An instance that already exists.
    init(name: String?, instance: Service) {
        let box = Box(instance)
        self.init(
            name: name, scope: .singleton, arguments: nil, argumentTypes: [], prebuilt: instance,
            factory: .plain { box.value })
    }
}
