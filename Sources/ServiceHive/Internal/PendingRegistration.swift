/// What a `register` call asked for, before it is stored: the key, and how to make the entry once the site and
/// sequence number are known. Hive registrations and override registrations both go through it.
struct PendingRegistration {
    let key: RegistrationKey
    private let makeEntry: (ServiceHive.RegistrationSite, UInt64) -> Entry

    func makeEntry(site: ServiceHive.RegistrationSite, sequence: UInt64) -> Entry {
        makeEntry(site, sequence)
    }

    private init<Service>(
        _ service: Service.Type,
        name: String?,
        scope: ServiceHive.Scope,
        arguments: ArgumentSignature?,
        argumentTypes: [Any.Type],
        prebuilt: Service? = nil,
        factory: TypedEntry<Service>.Factory
    ) {
        key = RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: arguments)
        makeEntry = { site, sequence in
            let entry = TypedEntry<Service>(
                name: name,
                arguments: arguments,
                scope: scope,
                argumentTypes: argumentTypes,
                site: site,
                sequence: sequence,
                factory: factory
            )
            if let prebuilt { _ = entry.replaceSlot(with: .instance(Box(prebuilt))) }
            return entry
        }
    }

    /// A factory without dependencies.
    init<Service>(name: String?, scope: ServiceHive.Scope, factory: @escaping @Sendable () throws -> Service) {
        self.init(
            Service.self, name: name, scope: scope, arguments: nil, argumentTypes: [], factory: .plain(factory))
    }

    /// A factory that resolves its dependencies.
    init<Service>(
        name: String?,
        scope: ServiceHive.Scope,
        factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service
    ) {
        self.init(
            Service.self, name: name, scope: scope, arguments: nil, argumentTypes: [], factory: .resolver(factory))
    }

    /// A factory with runtime arguments; with none, the same as a transient resolver factory.
    init<Service, each Argument>(
        name: String?,
        factory: @escaping @Sendable (ServiceHive.Resolver, repeat each Argument) throws -> Service
    ) {
        let signature = ArgumentSignature.of(repeat (each Argument).self)
        guard signature != nil else {
            // An empty pack: `{ r in … }` without `scope:` lands here. Call the factory with an empty tuple.
            let withoutArguments: @Sendable (ServiceHive.Resolver) throws -> Service = { resolver in
                try withUnsafePointer(to: ()) { empty in
                    let none = UnsafeRawPointer(empty).assumingMemoryBound(to: (repeat each Argument).self).pointee
                    return try factory(resolver, repeat each none)
                }
            }
            self.init(
                Service.self, name: name, scope: .transient, arguments: nil, argumentTypes: [],
                factory: .resolver(withoutArguments))
            return
        }
        self.init(
            Service.self,
            name: name,
            scope: .transient,
            arguments: signature,
            argumentTypes: ArgumentSignature.types(repeat (each Argument).self),
            factory: .arguments { resolver, pointer in
                // Safe: the resolution path passes a pointer to `(repeat each Argument)` for exactly this signature.
                let arguments = pointer.assumingMemoryBound(to: (repeat each Argument).self).pointee
                return try factory(resolver, repeat each arguments)
            }
        )
    }

    /// An instance that already exists.
    init<Service>(name: String?, instance: Service) {
        let box = Box(instance)
        self.init(
            Service.self, name: name, scope: .singleton, arguments: nil, argumentTypes: [], prebuilt: instance,
            factory: .plain { box.value })
    }
}

extension ArgumentSignature {
    /// The signature of an argument list, or `nil` when it is empty.
    static func of<each Argument>(_ types: repeat (each Argument).Type) -> ArgumentSignature? {
        var count = 0
        for _ in repeat each types { count += 1 }
        guard count > 0 else { return nil }
        return ArgumentSignature(tuple: ObjectIdentifier((repeat each Argument).self), count: count)
    }

    /// The argument types, in order.
    static func types<each Argument>(_ types: repeat (each Argument).Type) -> [Any.Type] {
        var list: [Any.Type] = []
        for type in repeat each types { list.append(type) }
        return list
    }
}
