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
    /// its parent's. A cached `.singleton` that this thread resolved before costs no lock and no allocation, and a
    /// transient it resolved before is built without the lock.
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

// The overloads the compiler picks when `Service` is known to be `Sendable`. Each does what its documented twin does,
// and refuses a registration that was not sure its instances are `Sendable`, with `ServiceHiveError.notSendable`; see
// `Sendability`. They are hidden from the documentation, where they would only repeat their twins.

extension ServiceHive.Resolving {
    /// Resolves a `Sendable` service registered without arguments.
    @_documentation(visibility: internal)
    @inlinable
    public func resolve<Service: Sendable>(_ service: Service.Type = Service.self, name: String? = nil) throws
        -> Service
    {
        try resolver.resolve(Service.self, name: name, requiresSendable: true)
    }

    /// Resolves a `Sendable` service whose factory may be `async`, awaiting it.
    @_documentation(visibility: internal)
    @inlinable
    nonisolated(nonsending) public func resolveAsync<Service: Sendable>(
        _ service: Service.Type = Service.self,
        name: String? = nil
    ) async throws -> Service {
        try await resolver.resolveAsync(Service.self, name: name, requiresSendable: true)
    }

    /// Resolves a `Sendable` service registered with runtime arguments.
    @_documentation(visibility: internal)
    @inlinable
    public func resolve<Service: Sendable, First, each Rest>(
        _ service: Service.Type = Service.self, name: String? = nil, arguments first: First, _ rest: repeat each Rest
    ) throws -> Service {
        try resolver.resolve(Service.self, name: name, requiresSendable: true, first, repeat each rest)
    }
}

extension ServiceHive {
    /// What a factory receives to resolve its own dependencies.
    ///
    /// ```swift
    /// try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// A resolver resolves from the hive the factory runs for. Resolves made through it during the factory join the
    /// resolve that called the factory: they share its chain, so cycles are reported instead of overflowing the
    /// stack, and its `.graph` instances.
    ///
    /// A resolver may be kept and used after the factory returns, to resolve a dependency lazily; that is one way to
    /// break a cycle between two services. It does not keep its hive alive, so an instance that keeps its resolver
    /// forms no retain cycle with the hive that caches it. Resolving through a resolver whose hive has been released
    /// throws ``ServiceHiveError/hiveReleased(_:)``.
    public struct Resolver: Resolving {
        /// The hive this resolver resolves from. The one stored property: with a second, building a transient retains
        /// and releases its resolver (`Benchmarks/count-instructions 01`: 867 with two, 808 with one).
        let core: HiveCore

        init(core: HiveCore) {
            self.core = core
        }

        /// This resolver itself.
        public var resolver: Resolver { self }

        /// The entry point of the inlinable resolve methods of ``Resolving``.
        @usableFromInline
        func resolve<Service>(_: Service.Type, name: String?, requiresSendable: Bool) throws -> Service {
            try core.resolve(RegistrationKey(Service.self, name: name, requiresSendable: requiresSendable))
        }

        /// The entry point of the inlinable async resolve methods of ``Resolving``.
        @usableFromInline
        nonisolated(nonsending) func resolveAsync<Service>(
            _: Service.Type,
            name: String?,
            requiresSendable: Bool
        ) async throws -> Service {
            try await core.resolveAsync(RegistrationKey(Service.self, name: name, requiresSendable: requiresSendable))
        }

        /// Lays the arguments out in the caller, for both overloads of `resolve(_:name:arguments:_:)`.
        @inlinable
        func resolve<Service, First, each Rest>(
            _: Service.Type,
            name: String?,
            requiresSendable: Bool,
            _ first: First,
            _ rest: repeat each Rest
        ) throws -> Service {
            // Safe: a list with a first element always has a signature.
            let signature = ArgumentPack.signature(First.self, repeat (each Rest).self).unsafelyUnwrapped
            let layout = ArgumentPack.layout(First.self, repeat (each Rest).self)
            return try ArgumentPack.withBuffer(byteCount: layout.byteCount, alignment: layout.alignment) { values in
                ArgumentPack.store(first, repeat each rest, in: values)
                defer { ArgumentPack.destroy(First.self, repeat (each Rest).self, in: values) }
                return try resolve(
                    Service.self,
                    name: name,
                    signature: signature,
                    requiresSendable: requiresSendable,
                    values: UnsafeRawPointer(values),
                    types: { ArgumentPack.types(First.self, repeat (each Rest).self) },
                    matches: { ArgumentPack.matches($0, First.self, repeat (each Rest).self) }
                )
            }
        }

        /// The entry point of the `@inlinable` argument resolves, which lay the arguments out in the caller.
        @usableFromInline
        func resolve<Service>(
            _: Service.Type,
            name: String?,
            signature: ArgumentSignature,
            requiresSendable: Bool,
            values: UnsafeRawPointer,
            types: () -> [Any.Type],
            matches: ([Any.Type]) -> Bool
        ) throws -> Service {
            try core.resolve(
                RegistrationKey(Service.self, name: name, arguments: signature, requiresSendable: requiresSendable),
                arguments: values,
                argumentTypes: types, argumentsMatch: matches)
        }
    }
}
