extension ServiceHive {
    // MARK: - Registering by initializer

    /// Registers `service`, built by an initializer whose parameters the hive resolves, each by its type.
    ///
    /// ```swift
    /// // LiveOrders.init(pricing: any Pricing, ledger: any Ledger)
    /// try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init)
    /// ```
    ///
    /// The parameters are the registration's dependencies, and the hive records them now, without running anything,
    /// so that ``check()`` finds a missing service, a cycle or a captive dependency before anything is built. A
    /// parameter's type says how it is resolved, as it would for a resolve:
    ///
    /// | Parameter | Resolves |
    /// | --- | --- |
    /// | `T` | the unnamed registration of `T` |
    /// | `T?` | it, or `nil` when nothing registers `T` |
    /// | ``Lazy``<T> | it on first use, then keeps it; breaks a cycle |
    /// | ``Provider``<T> | it again on every use; breaks a cycle |
    /// | `[T]` | every contribution to the collection of `T`, as ``ServiceHive/Resolving/resolveAll(_:)`` does |
    ///
    /// A parameter resolves the unnamed registration of its type; for a named one, register with a closure that
    /// declares it with ``register(_:name:scope:dependsOn:file:line:factory:)``.
    ///
    /// **Naming one initializer.** When the type has several, name the one you mean with its argument labels:
    /// `initializer: LiveOrders.init(pricing:ledger:)`. A default parameter value is not part of an initializer's type,
    /// so the hive resolves every parameter, defaults included; to keep a default, write a closure.
    ///
    /// The initializer may throw; an error is reported as a factory's is. It is `@Sendable` because a shared instance
    /// may be built on any thread; a reference to an initializer, such as `LiveOrders.init`, always is.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` for a duplicate;
    ///   ``ServiceHiveError/registrationRefused(_:reason:fix:)`` for an initializer that takes the very service it
    ///   registers.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    @inlinable
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws {
        // Inlinable, so that the closure that calls the initializer is made in the caller, for its types: made here,
        // in generic code, a resolve of a transient with three dependencies ran 3,743 instructions, not 1,680
        // (`Benchmarks/count-instructions 29c` against `03`).
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: false,
            declaring: repeat (each Dependency).self, factory: Self.initializerFactory(initializer))
    }

    /// Registers `service`, built by an `async` initializer whose parameters the hive resolves, each by its type.
    ///
    /// ```swift
    /// // LiveDatabase.init(configuration: Configuration) async throws
    /// try hive.register(Database.self, scope: .singleton, initializer: LiveDatabase.init)
    /// let database = try await hive.resolveAsync(Database.self)
    /// ```
    ///
    /// The parameters mean what they mean for `register(_:name:scope:file:line:initializer:)`; each
    /// is resolved with ``ServiceHive/Resolving/resolveAsync(_:name:)``. Only `resolveAsync` builds the service.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds; any scope but `.weak`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as the synchronous form does; ``ServiceHiveError/registrationRefused(_:reason:fix:)``
    ///   for `.weak`.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown, asyncInitializer: initializer)
    }

    /// Registers `service`, built by an initializer whose leading parameter is a runtime argument and whose other
    /// parameters the hive resolves by their types.
    ///
    /// ```swift
    /// // LiveGreeter.init(name: String, clock: any Clock)
    /// try hive.register(Greeter.self, arguments: String.self, initializer: LiveGreeter.init)
    /// let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
    /// ```
    ///
    /// The runtime arguments fill the leading parameters, in order, and the resolve passes them as it does for a
    /// closure registration with arguments; the parameters after them are dependencies, declared as for
    /// `register(_:name:scope:file:line:initializer:)`. Such a registration is transient.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - first: The type of the runtime argument, which fills the initializer's first parameter.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from the argument and its dependencies.
    /// - Throws: A ``ServiceHiveError``, as the form without arguments does.
    public func register<Service, First, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        arguments first: First.Type,
        file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (First, repeat each Dependency) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, site: RegistrationSite(fileID: file, line: line), sendable: false,
            argument: First.self, initializer: initializer)
    }

    /// Registers `service`, built by an initializer whose two leading parameters are runtime arguments and whose
    /// other parameters the hive resolves by their types.
    ///
    /// ```swift
    /// // LiveQuote.init(symbol: String, quantity: Int, pricing: any Pricing)
    /// try hive.register(Quote.self, arguments: String.self, Int.self, initializer: LiveQuote.init)
    /// let quote = try hive.resolve(Quote.self, arguments: "ACME", 3)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - first: The type of the first runtime argument, which fills the initializer's first parameter.
    ///   - second: The type of the second, which fills its second parameter.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from the arguments and its dependencies.
    /// - Throws: A ``ServiceHiveError``, as the form without arguments does.
    public func register<Service, First, Second, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        arguments first: First.Type,
        _ second: Second.Type,
        file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (First, Second, repeat each Dependency) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, site: RegistrationSite(fileID: file, line: line), sendable: false,
            arguments: First.self, Second.self, initializer: initializer)
    }

    // MARK: - Declaring a closure's dependencies

    /// Registers a factory that resolves its dependencies through a ``Resolver``, and declares them, so that
    /// ``check()`` checks it as it checks a registration by initializer.
    ///
    /// ```swift
    /// try hive.register(Checkout.self, scope: .singleton, dependsOn: [.on(Cart.self), .on(Pricing.self, name: "eu")]) {
    ///     r in LiveCheckout(cart: try r.resolve(), pricing: try r.resolve(name: "eu"))
    /// }
    /// ```
    ///
    /// The hive cannot see into the closure: it trusts the list, and ``validate(_:)`` still builds what the closure
    /// really resolves.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - dependencies: What the factory resolves.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        dependsOn dependencies: [Dependency],
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, dependsOn: dependencies,
            site: RegistrationSite(fileID: file, line: line), sendable: .unknown, factory: factory)
    }

    // MARK: - Contributing by initializer

    /// Adds an implementation built by an initializer to the collection of `service`; the hive resolves each of its
    /// parameters by its type, as `register(_:name:scope:file:line:initializer:)` does.
    ///
    /// ```swift
    /// // DatabaseCheck.init(database: any Database)
    /// try hive.contribute(HealthCheck.self, name: "database", scope: .singleton, initializer: DatabaseCheck.init)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name that tells this contribution apart from the others of this hive's collection, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - initializer: Builds the instance from its parameters.
    /// - Throws: A ``ServiceHiveError``, as `contribute(_:name:scope:file:line:factory:completed:)`
    ///   does; ``ServiceHiveError/registrationRefused(_:reason:fix:)`` for an initializer that takes the collection
    ///   it contributes to.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    public func contribute<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws {
        try contribute(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown, initializer: initializer)
    }

    // MARK: - Internals

    /// The factory of a registration by initializer: it resolves each parameter by its type and calls the initializer.
    ///
    /// Inlinable, so that it is made in the caller, for its types. When no parameter is a collection, each is a plain
    /// resolve and the closure captures the initializer alone, which lets the optimizer call a reference such as
    /// `LiveComposite.init` in place: a resolve of a transient with three dependencies through a pack ran 1,883
    /// instructions so, against 1,963 when every parameter went through `Parameter` (`Benchmarks/count-instructions
    /// 29c` without the overloads of `ServiceHive+RegisterInitializerArity.swift`, which it uses now).
    @inlinable
    static func initializerFactory<Service, each Dependency>(
        _ initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> @Sendable (Resolver, UnsafeRawPointer?) throws -> Service {
        guard ParameterResolution.includesCollection(repeat (each Dependency).self) else {
            return { resolver, _ in
                try initializer(repeat try resolver.resolve((each Dependency).self, name: nil, requiresSendable: false))
            }
        }
        let parameters = (repeat Parameter((each Dependency).self))
        return { resolver, _ in try initializer(repeat try (each parameters).resolve(with: resolver)) }
    }

    /// How one parameter of an initializer is resolved, decided once, when it is registered: as a resolve of its type
    /// would, or, for an array, as the collection of its elements; for the initializers that have a collection
    /// parameter. Inlinable, so that a resolve of a registration by initializer does in the caller's code what the
    /// hand-written closure would: made in generic code, a resolve of a transient with three dependencies ran 3,743
    /// instructions, not 1,680 (`Benchmarks/count-instructions 29c` against `03`).
    @usableFromInline
    struct Parameter<Value>: Sendable {
        @usableFromInline let isCollection: Bool

        @usableFromInline
        init(_: Value.Type) {
            isCollection = Value.self is any CollectionParameter.Type
        }

        @inlinable
        func resolve(with resolver: Resolver) throws -> Value {
            if isCollection { return try Self.resolveCollection(with: resolver) }
            return try resolver.resolve(Value.self, name: nil, requiresSendable: false)
        }

        @usableFromInline
        static func resolveCollection(with resolver: Resolver) throws -> Value {
            // Safe: `isCollection` says that `Value` is a `CollectionParameter`, whose `resolveCollection` returns
            // `Self`.
            try (Value.self as! any CollectionParameter.Type).resolveCollection(with: resolver) as! Value
        }
    }

    /// Registers the closure that the inlinable `register(_:name:scope:file:line:initializer:)` made, with the
    /// dependencies of its initializer.
    ///
    /// - Parameter sendable: Whether the caller's `Service` is known to be `Sendable`.
    @usableFromInline
    func register<Service, each Dependency>(
        _: Service.Type, name: String?, scope: Scope, site: RegistrationSite, sendable: Bool,
        declaring _: repeat (each Dependency).Type,
        factory: @escaping @Sendable (Resolver, UnsafeRawPointer?) throws -> Service
    ) throws {
        let declared = ParameterResolution.declarations(repeat (each Dependency).self)
        try refuseSelfDependency(
            RegistrationKey(Service.self, name: name), declared, refused: ServiceKey(Service.self, name: name))
        try register(
            Maker(factory), name: name, scope: scope, site: site,
            sendable: sendable ? .declared : .unknown, declared: declared)
    }

    /// Registers what an initializer builds: the override builder's synchronous registrations by initializer.
    func register<Service, each Dependency>(
        _: Service.Type, name: String?, scope: Scope, site: RegistrationSite, sendable: Sendability,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws(ServiceHiveError) {
        let declared = ParameterResolution.declarations(repeat (each Dependency).self)
        try refuseSelfDependency(
            RegistrationKey(Service.self, name: name), declared, refused: ServiceKey(Service.self, name: name))
        try register(
            Self.factory(initializer), name: name, scope: scope, site: site, sendable: sendable, declared: declared)
    }

    /// Registers what an initializer with a leading runtime argument builds.
    func register<Service, First, each Dependency>(
        _: Service.Type, name: String?, site: RegistrationSite, sendable: Bool, argument _: First.Type,
        initializer: @escaping @Sendable (First, repeat each Dependency) throws -> Service
    ) throws(ServiceHiveError) {
        let resolvers = (repeat ParameterResolution.resolver((each Dependency).self))
        try register(
            ArgumentFactory { (resolver: Resolver, first: First) in
                try initializer(first, repeat try (each resolvers)(resolver))
            },
            name: name, site: site, sendable: sendable,
            declared: ParameterResolution.declarations(repeat (each Dependency).self, from: 2))
    }

    /// Registers what an initializer with two leading runtime arguments builds.
    func register<Service, First, Second, each Dependency>(
        _: Service.Type, name: String?, site: RegistrationSite, sendable: Bool, arguments _: First.Type,
        _: Second.Type, initializer: @escaping @Sendable (First, Second, repeat each Dependency) throws -> Service
    ) throws(ServiceHiveError) {
        let resolvers = (repeat ParameterResolution.resolver((each Dependency).self))
        try register(
            ArgumentFactory { (resolver: Resolver, first: First, second: Second) in
                try initializer(first, second, repeat try (each resolvers)(resolver))
            },
            name: name, site: site, sendable: sendable,
            declared: ParameterResolution.declarations(repeat (each Dependency).self, from: 3))
    }

    /// Registers a closure with the dependencies it declares.
    func register<Service>(
        _: Service.Type, name: String?, scope: Scope, dependsOn dependencies: [Dependency], site: RegistrationSite,
        sendable: Sendability, factory: @escaping @Sendable (Resolver) throws -> Service
    ) throws(ServiceHiveError) {
        let declared = dependencies.enumerated().map { $1.declared($0 + 1) }
        try refuseSelfDependency(
            RegistrationKey(Service.self, name: name), declared, refused: ServiceKey(Service.self, name: name))
        try register(
            Maker(resolving: factory), name: name, scope: scope, site: site, sendable: sendable, declared: declared)
    }

    /// Contributes what an initializer builds.
    func contribute<Service, each Dependency>(
        _: Service.Type, name: String?, scope: Scope, site: RegistrationSite, sendable: Sendability,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws(ServiceHiveError) {
        let declared = ParameterResolution.declarations(repeat (each Dependency).self)
        try refuseSelfDependency(
            RegistrationKey(collectionOf: Service.self, name: nil), declared,
            refused: ServiceKey(contributionTo: typeName(Service.self), name: name, site: site))
        try contribute(
            Self.factory(initializer), name: name, scope: scope, site: site, sendable: sendable, declared: declared)
    }

    /// Registers what an async initializer builds.
    func register<Service, each Dependency>(
        _: Service.Type, name: String?, scope: Scope, site: RegistrationSite, sendable: Sendability,
        asyncInitializer initializer: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) throws(ServiceHiveError) {
        let declared = ParameterResolution.declarations(repeat (each Dependency).self)
        try refuseSelfDependency(
            RegistrationKey(Service.self, name: name), declared, refused: ServiceKey(Service.self, name: name))
        let resolvers = (repeat ParameterResolution.asyncResolver((each Dependency).self))
        try register(
            Maker(async: { resolver in try await initializer(repeat try await (each resolvers)(resolver)) }),
            name: name, scope: scope, site: site, sendable: sendable, declared: declared)
    }

    /// The factory that calls `initializer` with each parameter resolved: made once, with each parameter's resolve
    /// decided here, so that a resolve of the registration does what a hand-written closure would.
    static func factory<Service, each Dependency>(
        _ initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Maker<Service> {
        let resolvers = (repeat ParameterResolution.resolver((each Dependency).self))
        return Maker { resolver, _ in try initializer(repeat try (each resolvers)(resolver)) }
    }

    /// Refuses a registration whose declared dependencies include itself: the service it registers, by a parameter
    /// that is built first, would resolve this same registration, without end.
    func refuseSelfDependency(
        _ own: RegistrationKey, _ declared: [DeclaredDependency], refused: ServiceKey
    ) throws(ServiceHiveError) {
        guard let loop = declared.first(where: { $0.key == own && $0.isBuiltFirst }) else { return }
        throw .registrationRefused(
            refused,
            reason: "its \(loop.parameter) is \(loop.service) itself, so building it would need it already built",
            fix: "take ServiceHive.Lazy<\(loop.service.service)> or ServiceHive.Provider<\(loop.service.service)> "
                + "to resolve it later, or, to wrap another implementation, depend on a registration of it under a name"
        )
    }
}
