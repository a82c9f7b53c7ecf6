// MARK: - Entry

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
        factory: Factory<Service>,
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
        _: Service.Type, name: String?, role: Role = .registration, instance: Service,
        site: ServiceHive.RegistrationSite, sendable: Sendability
    ) {
        let box = Box(instance)
        self.init(
            Service.self, name: name, role: role, scope: .singleton, site: site, factory: Factory(returning: box),
            instance: box, sendable: sendable)
    }

    /// The entry of the collection of `Element`, made where `site` says: the marker of `replaceContributions(of:)`, or
    /// the link a collection's resolve puts on the chain. Its factory is never called.
    convenience init<Element>(collectionOf _: Element.Type, site: ServiceHive.RegistrationSite) {
        self.init(
            Element.self, name: nil, role: .collection, scope: .transient, site: site,
            factory: Factory<Element> { _, _ in preconditionFailure("a collection's entry is never built") },
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

/// How the resolution path treats a scope. Each `ServiceHive.Scope` carries its own, so that nothing but the one switch
/// of a resolve's step (`HiveCore.step`) switches on it.
enum Lifetime: Sendable {
    case transient, graph
    /// `.singleton` and named scopes: one instance, cached.
    case shared
    /// The instance is a weak reference, to unwrap.
    case weak
    /// Forwarded to another registration of the same hive: converts the target's cached instance, or is built as a
    /// transient that resolves the target.
    case forward
}

/// The name ServiceHive prints for a type: `TradeService` for `any TradeService`, `Int` for `Swift.Int`.
///
/// Kept per type once made: `String(describing:)` reflects on the type every time, which cost a traced resolve, whose
/// trace names the service it resolves, 7,200 of its 10,200 instructions (`Benchmarks/count-instructions 19c`).
func typeName(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = String(describing: type)
    typeNames.withLock { $0[key] = name }
    return name
}

/// Guards, and only guards, the names `typeName` has made, by type. A type's metadata lives as long as the process, so
/// its identifier is never reused, and the table grows only with the types a process resolves.
private let typeNames = Locked<[ObjectIdentifier: String]>([:])

// MARK: - Record and instances

/// A registration in a hive, with what the hive keeps for it between resolves.
struct Record: Sendable {
    let entry: Entry
    /// The registration order in the hive family, for stable listings.
    let sequence: UInt64
    /// The cached instance of a shared scope; from the start, the instance of `register(_:name:instance:)`.
    var slot: Slot

    init(entry: Entry, sequence: UInt64) {
        self.entry = entry
        self.sequence = sequence
        slot = entry.instance.map { Slot.instance($0) } ?? .empty
    }
}

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
