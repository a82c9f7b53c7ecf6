// What a registration by initializer, or a closure registration with `dependsOn:`, records about its dependencies
// when it is registered, without running anything: one `DeclaredDependency` per parameter. `check()` reads them; a
// resolve never does.

/// One dependency a registration declared: which parameter asks for which service, and how.
///
/// A class, so that the check's links share it: as a struct of keys and texts, copying it into each link cost the check
/// of 1,000 registrations a third of its instructions (`Benchmarks/count-instructions 30a`).
final class DeclaredDependency: Sendable {
    /// How the parameter asks for its service; the parameter's type says, as it says for a resolve.
    enum Kind: Sendable, Equatable {
        /// `T`: the service must be registered, and is built before the registration's own instance.
        case required
        /// `T?`: `nil` when nothing registers the service.
        case optional
        /// `ServiceHive.Lazy<T>`: resolved on first use, then kept.
        case lazy
        /// `ServiceHive.Provider<T>`: resolved again on every use.
        case provider
        /// `[T]`: every contribution to the collection of `T`; empty when there is none.
        case collection
    }

    /// The position of the parameter among the initializer's, from 1; for `dependsOn:`, the position in that list.
    let position: Int
    /// The parameter's type, as written: `Lazy<Clock>`, `Optional<Analytics>`, `Array<HealthCheck>`.
    let parameterType: String
    /// How the parameter asks for its service.
    let kind: Kind
    /// The key of the service it needs: for a collection, the collection's key.
    let key: RegistrationKey
    /// The hash of `key` in the check's table of keys (`KeyTable`), made once, when the registration is made: hashing
    /// each dependency's key in each check cost the check of 1,000 registrations about 600,000 of its instructions
    /// (`Benchmarks/count-instructions 30a`).
    let keyHash: Int
    /// That service as errors print it.
    let service: ServiceHive.ServiceKey
    /// The key of the parameter's own type, `[HealthCheck]` for a collection: what a registration of that very type
    /// would be registered under.
    let ownKey: RegistrationKey

    /// The declaration of a parameter of type `Parameter`: a wrapper's service for `Lazy`, `Provider`, `Optional` and
    /// `Array`, the type itself otherwise. `name` names the registration it needs, for `dependsOn:`.
    init<Parameter>(_: Parameter.Type, position: Int, name: String? = nil) {
        self.position = position
        parameterType = typeName(Parameter.self)
        ownKey = RegistrationKey(Parameter.self, name: name)
        if let wrapper = Parameter.self as? any DeclaredWrapper.Type {
            (kind, key, service) = wrapper.declared(name: name)
        } else {
            kind = .required
            key = RegistrationKey(Parameter.self, name: name)
            service = ServiceHive.ServiceKey(Parameter.self, name: name)
        }
        keyHash = KeyTable.hash(key)
    }

    /// The link of a forwarded registration to its target: built first, and kept.
    init(forwardTo target: RegistrationKey, service: ServiceHive.ServiceKey) {
        position = 1
        parameterType = service.service
        kind = .required
        key = target
        self.service = service
        ownKey = target
        keyHash = KeyTable.hash(target)
    }

    /// Whether building the registration builds this service first, so that a cycle through it would never end.
    var isBuiltFirst: Bool { kind == .required || kind == .optional || kind == .collection }

    /// Whether an instance that holds this parameter keeps the service's instance for as long as it lives.
    var isKept: Bool { kind != .provider }

    /// "parameter 2 (Ledger)", as the check's errors name it.
    var parameter: String { "parameter \(position) (\(parameterType))" }
}

/// A parameter type that stands for another service: `Optional`, `Lazy`, `Provider`, and `Array` for a collection.
protocol DeclaredWrapper {
    /// How a parameter of this type asks for its service, and that service's key.
    static func declared(name: String?) -> (DeclaredDependency.Kind, RegistrationKey, ServiceHive.ServiceKey)
}

extension Optional: DeclaredWrapper {
    static func declared(name: String?) -> (DeclaredDependency.Kind, RegistrationKey, ServiceHive.ServiceKey) {
        (.optional, RegistrationKey(Wrapped.self, name: name), ServiceHive.ServiceKey(Wrapped.self, name: name))
    }
}

extension ServiceHive.Lazy: DeclaredWrapper {
    static func declared(name: String?) -> (DeclaredDependency.Kind, RegistrationKey, ServiceHive.ServiceKey) {
        (.lazy, RegistrationKey(Service.self, name: name), ServiceHive.ServiceKey(Service.self, name: name))
    }
}

extension ServiceHive.Provider: DeclaredWrapper {
    static func declared(name: String?) -> (DeclaredDependency.Kind, RegistrationKey, ServiceHive.ServiceKey) {
        (.provider, RegistrationKey(Service.self, name: name), ServiceHive.ServiceKey(Service.self, name: name))
    }
}

extension Array: DeclaredWrapper {
    static func declared(name: String?) -> (DeclaredDependency.Kind, RegistrationKey, ServiceHive.ServiceKey) {
        (
            .collection, RegistrationKey(collectionOf: Element.self, name: nil),
            ServiceHive.ServiceKey(collectionOf: typeName(Element.self))
        )
    }
}

// MARK: - Resolving a parameter

/// A parameter type that resolves as something other than a registration of itself: `Array`, the collection of its
/// elements. `Lazy`, `Provider` and `Optional` need nothing here: a resolve of them already means what they mean.
protocol CollectionParameter: SendableMetatype {
    static func resolveCollection(with resolver: ServiceHive.Resolver) throws -> Self
    static func resolveCollectionAsync(with resolver: ServiceHive.Resolver) async throws -> Self
}

extension Array: CollectionParameter {
    static func resolveCollection(with resolver: ServiceHive.Resolver) throws -> Self {
        try resolver.resolveAll(Element.self, requiresSendable: false)
    }

    static func resolveCollectionAsync(with resolver: ServiceHive.Resolver) async throws -> Self {
        try await resolver.resolveAllAsync(Element.self, requiresSendable: false)
    }
}

/// How one parameter of an initializer is resolved, decided once when it is registered: a resolve never asks what
/// kind of parameter it has.
@usableFromInline
enum ParameterResolution {
    /// Whether any of the parameters `Parameter...` is a collection, `[T]`, which resolves as the contributions to
    /// the collection of `T` rather than as a registration of its own type.
    @usableFromInline
    static func includesCollection<each Parameter>(_: repeat (each Parameter).Type) -> Bool {
        for type in repeat (each Parameter).self {
            if type is any CollectionParameter.Type { return true }
        }
        return false
    }

    /// The resolve of one parameter of type `Parameter`, synchronous.
    static func resolver<Parameter>(_: Parameter.Type) -> @Sendable (ServiceHive.Resolver) throws -> Parameter {
        if let collection = Parameter.self as? any CollectionParameter.Type {
            // Safe: `resolveCollection` returns `Self`, which is `Parameter`.
            return { resolver in try collection.resolveCollection(with: resolver) as! Parameter }
        }
        let key = RegistrationKey(Parameter.self, name: nil)
        return { resolver in try resolver.core.resolve(key) }
    }

    /// The resolve of one parameter of type `Parameter`, awaiting an async factory.
    static func asyncResolver<Parameter>(
        _: Parameter.Type
    ) -> @Sendable (ServiceHive.Resolver) async throws -> Parameter {
        if let collection = Parameter.self as? any CollectionParameter.Type {
            // Safe: as above.
            return { resolver in try await collection.resolveCollectionAsync(with: resolver) as! Parameter }
        }
        let key = RegistrationKey(Parameter.self, name: nil)
        return { resolver in try await resolver.core.resolveAsync(key) }
    }

    /// The declarations of the parameters `Parameter...`, in order.
    static func declarations<each Parameter>(_: repeat (each Parameter).Type, from first: Int = 1)
        -> [DeclaredDependency]
    {
        var declared: [DeclaredDependency] = []
        for type in repeat (each Parameter).self {
            declared.append(DeclaredDependency(type, position: first + declared.count))
        }
        return declared
    }
}
