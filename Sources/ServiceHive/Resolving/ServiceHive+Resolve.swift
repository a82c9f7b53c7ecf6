extension ServiceHive {
    /// What resolves services: a hive, and the ``Resolver`` its factories receive. Every method of it works the same
    /// on both, so code that only resolves can take either:
    ///
    /// ```swift
    /// func makeCheckout(_ services: some ServiceHive.Resolving) throws -> Checkout {
    ///     Checkout(trade: try services.resolve(), cart: try services.resolve())
    /// }
    /// ```
    public protocol Resolving: Sendable {
        /// The resolver this resolves through: a hive's own, or the resolver itself.
        var resolver: Resolver { get }
    }
}

extension ServiceHive.Resolving {
    /// Resolves a service registered without arguments.
    ///
    /// ```swift
    /// let trade: any TradeService = try hive.resolve()
    /// let same = try hive.resolve(TradeService.self)
    /// let premium = try hive.resolve(TradeService.self, name: "premium")
    /// let maybe: (any Analytics)? = try hive.resolve()  // nil when Analytics has no registration
    /// ```
    ///
    /// The hive looks in the innermost override active in the current task first, then its own registrations, then
    /// its parent's. A cached `.singleton` costs one lock and one dictionary lookup, and allocates nothing.
    ///
    /// Resolving an `Optional` of a service resolves the service, and gives `nil` when it has no registration; every
    /// other failure, such as a factory that throws, still throws.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance, as the scope of its registration says.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/notRegistered(_:chain:)`` when nothing is registered;
    ///   ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when the registration needs arguments;
    ///   ``ServiceHiveError/circularDependency(_:)``, ``ServiceHiveError/factoryFailed(_:chain:underlying:)``,
    ///   ``ServiceHiveError/weakRequiresClass(_:instanceType:)``,
    ///   ``ServiceHiveError/resolutionTooDeep(_:chain:limit:)`` or ``ServiceHiveError/stackExhausted(_:chain:)``
    ///   when building fails.
    @inlinable
    public func resolve<Service>(_ service: Service.Type = Service.self, name: String? = nil) throws -> Service {
        try resolver.resolve(Service.self, name: name, requiresSendable: false)
    }

    /// Resolves a service whose factory may be `async`, awaiting it.
    ///
    /// ```swift
    /// try hive.register(Database.self, scope: .singleton) { r async throws in try await LiveDatabase.connect() }
    /// let database = try await hive.resolveAsync(Database.self)
    /// ```
    ///
    /// It resolves every registration: one with a synchronous factory as ``resolve(_:name:)`` would. It has a name of
    /// its own because an `async` overload of `resolve` would be preferred in every async function, so each
    /// synchronous resolve there would need an `await`.
    ///
    /// It runs on the caller's executor (it is `nonisolated(nonsending)`), so a resolve from an actor, or of an
    /// instance already cached, never hops to another executor. A shared instance is built in a task of its own, so
    /// that a caller cancelled while it waits neither cancels nor poisons the construction for the others.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance, as the scope of its registration says.
    /// - Throws: A ``ServiceHiveError``, as ``resolve(_:name:)`` does.
    @inlinable
    nonisolated(nonsending) public func resolveAsync<Service>(
        _ service: Service.Type = Service.self,
        name: String? = nil
    ) async throws -> Service {
        try await resolver.resolveAsync(Service.self, name: name, requiresSendable: false)
    }

    /// Resolves a service registered with runtime arguments.
    ///
    /// ```swift
    /// let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
    /// let formal = try hive.resolve(Greeter.self, name: "formal", arguments: "Mimi", 3)
    /// ```
    ///
    /// The argument types must be exactly those of the registration, in order.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    ///   - first: The first value passed to the factory.
    ///   - rest: The other values passed to the factory, if any.
    /// - Returns: A new instance.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when the service
    ///   is registered with other argument types, and the errors of ``resolve(_:name:)``.
    @inlinable
    public func resolve<Service, First, each Rest>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest
    ) throws -> Service {
        try resolver.resolve(Service.self, name: name, requiresSendable: false, first, repeat each rest)
    }

    /// Whether resolving `service` without arguments would find a registration: in this hive, a parent, or an
    /// override active in the current task.
    ///
    /// - Parameters:
    ///   - service: The type to look for.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: `true` when a registration exists.
    public func isRegistered<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        resolver.core.contains(RegistrationKey(Service.self, name: name), matches: { $0.isEmpty })
    }

    /// Whether resolving `service` with arguments of the given types would find a registration.
    ///
    /// ```swift
    /// hive.isRegistered(Greeter.self, arguments: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type to look for.
    ///   - name: The registration's name, or `nil`.
    ///   - first: The type of the first argument.
    ///   - rest: The types of the other arguments, in order.
    /// - Returns: `true` when a registration exists.
    public func isRegistered<Service, First, each Rest>(
        _ service: Service.Type,
        name: String? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type
    ) -> Bool {
        let signature = ArgumentPack.signature(First.self, repeat (each Rest).self)
        return resolver.core.contains(
            RegistrationKey(Service.self, name: name, arguments: signature),
            matches: { ArgumentPack.matches($0, First.self, repeat (each Rest).self) })
    }
}

/// An `Optional` type, which resolves its wrapped service or `nil`.
protocol OptionalService {
    /// Resolves the wrapped service, or gives `nil` when it has no registration. `chain` is the chain of the
    /// resolve, to tell that resolve's own miss from a miss in one of its factories, which still throws.
    ///
    /// `key` is the key of the `Optional`: the wrapped service's has its name, and requires `Sendable` when it does.
    static func resolveWrapped(
        with core: HiveCore,
        key: RegistrationKey,
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Self
}

extension Optional: OptionalService {
    static func resolveWrapped(
        with core: HiveCore,
        key: RegistrationKey,
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Self {
        let wrapped = RegistrationKey(Wrapped.self, name: key.name, requiresSendable: key.requiresSendable)
        do {
            return .some(try core.resolve(wrapped))
        } catch .notRegistered(let missed, let missChain)
            where missChain == chain && missed == ServiceHive.ServiceKey(Wrapped.self, name: key.name)
        {
            return .none
        }
    }
}
