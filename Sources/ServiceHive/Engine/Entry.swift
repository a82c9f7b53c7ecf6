/// One registration, or one override: what it builds, how long its instances live, and where it was made.
///
/// Immutable. The instances it builds are cached beside it, in a `Record`'s slot or an override layer's cache.
final class Entry: Sendable {
    let key: RegistrationKey
    let scope: ServiceHive.Scope
    /// How the resolution path treats the scope: a trivial enum, cheaper to switch on than `scope`; `.forward` for a
    /// forwarded registration.
    let lifetime: Lifetime
    let serviceType: Any.Type
    let argumentTypes: [Any.Type]
    let site: ServiceHive.RegistrationSite
    /// A `Maker<Service>` for the `serviceType` of this entry: the registration's, or for an instance, one that returns
    /// it, made on each read. A resolve returns an instance's box before it would call its factory; only validation and
    /// extensions read it. Made with the entry, it cost each instance that a request's child hive provides a factory
    /// and its closure, with their metadata: 600 instructions (`Benchmarks/count-instructions 12`).
    var factory: any ErasedMaker { maker ?? instance.unsafelyUnwrapped.returningMaker() }
    /// The registration's factory; `nil` for an instance, which `factory` makes a factory of. Read, typed, by
    /// `factory(of:)`.
    let maker: (any ErasedMaker)?
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
    /// What the entry stands for: a registration, a contribution to a collection, or a collection.
    let role: Role
    /// Whether the entry is a contribution, read where only that matters: the ownership rule, and the order of a
    /// registry's contributions.
    let isContribution: Bool
    /// For a contribution, the name it was given, or `nil`; its key's name is one of its own (`ContributionNames`).
    let contributionName: String?
    /// The dependencies the registration declared, by initializer or `dependsOn:`, read by `check()` and never while
    /// resolving; `nil` for a factory whose dependencies are hidden in its closure.
    let declared: [DeclaredDependency]?

    /// What an entry stands for.
    enum Role: Sendable {
        /// A registration, or an override of one.
        case registration
        /// One contribution to the collection of its service, keyed in the collection's key space with a name that no
        /// other entry has (`RegistrationKey(collectionOf:name:requiresSendable:)`).
        case contribution
        /// A collection itself, keyed in its key space without a name: the marker of
        /// `replaceContributions(of:)`, and the link a collection's resolve puts on the chain. Never built.
        case collection
    }

    /// - Parameters:
    ///   - name: A registration's name; for a contribution, the name it was given, which its key does not carry.
    ///   - role: What the entry stands for; a registration unless said.
    init<Service>(
        _: Service.Type,
        name: String?,
        role: Role = .registration,
        scope: ServiceHive.Scope,
        arguments: ArgumentSignature? = nil,
        argumentTypes: [Any.Type] = [],
        site: ServiceHive.RegistrationSite,
        factory: Maker<Service>?,
        instance: Instance? = nil,
        target: (key: RegistrationKey, printed: ServiceHive.ServiceKey)? = nil,
        sendable: Sendability,
        declared: [DeclaredDependency]? = nil
    ) {
        self.declared = declared
        switch role {
        case .registration: key = RegistrationKey(Service.self, name: name, arguments: arguments)
        case .contribution: key = RegistrationKey(collectionOf: Service.self, name: ContributionNames.unique())
        case .collection: key = RegistrationKey(collectionOf: Service.self, name: nil)
        }
        self.role = role
        isContribution = role == .contribution
        contributionName = role == .contribution ? name : nil
        unsureSendable = sendable.isUnsure(for: Service.self)
        self.scope = scope
        lifetime = target != nil ? .forward : scope.lifetime
        precondition(factory != nil || instance != nil, "an entry builds its instances or has one")
        isAsync = factory?.makeAsync != nil
        hasCompletedHook = factory?.completed != nil
        serviceType = Service.self
        self.argumentTypes = argumentTypes
        self.site = site
        maker = factory
        self.instance = instance
        self.target = target?.key
        targetServiceKey = target?.printed
    }

    /// An entry for an instance that already exists: a singleton, cached from the start. Its factory returns the
    /// instance; the resolution path returns the box before it would call it.
    convenience init<Service>(
        _: Service.Type, name: String?, role: Role = .registration, instance: Service,
        site: ServiceHive.RegistrationSite, sendable: Sendability
    ) {
        self.init(Service.self, name: name, role: role, box: Box(instance), site: site, sendable: sendable)
    }

    /// An entry for the instance in `box`, as above.
    convenience init<Service>(
        _: Service.Type, name: String?, role: Role = .registration, box: Box<Service>,
        site: ServiceHive.RegistrationSite, sendable: Sendability
    ) {
        self.init(
            Service.self, name: name, role: role, scope: .singleton, site: site, factory: nil, instance: box,
            sendable: sendable)
    }

    /// The entry of the collection of `Element`, made where `site` says: the marker of `replaceContributions(of:)`, or
    /// the link a collection's resolve puts on the chain. Its factory is never called.
    convenience init<Element>(collectionOf _: Element.Type, site: ServiceHive.RegistrationSite) {
        self.init(
            Element.self, name: nil, role: .collection, scope: .transient, site: site,
            factory: Maker<Element> { _, _ in preconditionFailure("a collection's entry is never built") },
            sendable: .declared)
    }

    /// The printable key; built on error and introspection paths only.
    var serviceKey: ServiceHive.ServiceKey {
        switch role {
        case .registration:
            ServiceHive.ServiceKey(
                service: typeName(serviceType), name: key.name, argumentTypes: argumentTypes.map(typeName))
        case .contribution:
            ServiceHive.ServiceKey(contributionTo: typeName(serviceType), name: contributionName, site: site)
        case .collection:
            ServiceHive.ServiceKey(collectionOf: typeName(serviceType))
        }
    }
}
