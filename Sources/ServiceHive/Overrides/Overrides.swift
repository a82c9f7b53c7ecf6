extension ServiceHive {
    /// The services that one ``ServiceHive/withOverrides(strict:_:operation:)`` swaps, registered in its `configure`
    /// closure.
    ///
    /// ```swift
    /// hive.withOverrides {
    ///     $0.register(TradeService.self) { MockTradeService() }
    ///     $0.register(Clock.self, instance: FixedClock())
    /// } operation: {
    ///     …
    /// }
    /// ```
    ///
    /// It offers every way to register that the hive does, with the same parameters: the forms of `register`,
    /// `forward` and `contribute`, those that the package's other libraries add, and `replaceContributions(of:)` to hide
    /// the hive's contributions to a collection. None of them throws: a second registration of the same service and
    /// name (and argument types) in one builder replaces the first, as a second assignment does.
    ///
    /// What can still go wrong is a mistake in the test's code, such as a `.weak` scope for an `async` factory: it
    /// stops the test with a message that names the registration by file and line and says how to fix it; each
    /// method's `Precondition` says what it requires.
    ///
    /// The builder is passed `inout`, as a child hive's ``ServiceHive/Provisions`` are, and is read once `configure`
    /// returns: registering into a copy kept after that changes no override.
    public struct Overrides {
        /// A hive of the overrides' own: each registration is made there, and `withOverrides` builds its layer from
        /// its registrations.
        let hive = ServiceHive()

        init() {}

        /// Registers with `register` into ``hive``, in place of the registrations under `keys`, if any; traps when
        /// `register` throws, which only a programmer error makes it do.
        ///
        /// Only those keys are removed: a forward to one of them stays, and resolves whatever replaces it.
        mutating func replace(
            _ keys: [RegistrationKey], file: String, line: UInt, _ register: (ServiceHive) throws -> Void
        ) {
            let removed = hive.family.withLock { state in
                state.withRegistry(hive.id) { registry in
                    keys.flatMap { key in
                        // Removing a key removes the forwards to it too; they stay, and follow what replaces it.
                        let removed = registry.remove(key)
                        for forward in removed where forward.entry.key != key { registry.insert(forward) }
                        return removed
                    }
                } ?? []
            }
            withExtendedLifetime(removed) {}  // Released outside the lock.
            do {
                try register(hive)
            } catch {
                preconditionFailure("withOverrides: the override at \(file):\(line) cannot be registered: \(error)")
            }
        }
    }
}

extension ServiceHive.Overrides {
    // MARK: - Registering

    /// Registers a factory that builds `service`, in place of the hive's.
    ///
    /// ```swift
    /// $0.register(TradeService.self) { MockTradeService() }
    /// $0.register(TradeService.self, name: "premium", scope: .singleton) { MockTradeService() }
    /// ```
    ///
    /// The hive's `register` with the same parameters, except that it replaces a registration of the same service
    /// and name made before in this builder.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook, or `nil`.
    public mutating func register<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory,
                completed: completed)
        }
    }

    /// Registers a factory that resolves its dependencies through a ``ServiceHive/Resolver``, in place of the
    /// hive's.
    ///
    /// ```swift
    /// $0.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// The resolver resolves from the hive being overridden, and sees the other overrides.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook, or `nil`.
    public mutating func register<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory,
                completed: completed)
        }
    }

    /// Registers an `async` factory, in place of the hive's registration.
    ///
    /// ```swift
    /// $0.register(Database.self, scope: .singleton) { _ in await InMemoryDatabase.make() }
    /// ```
    ///
    /// - Precondition: `scope` is not `.weak`: an async factory cannot build a `.weak` instance. Register it as
    ///   `.singleton`, in a named scope, or with a synchronous factory.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds; any scope but `.weak`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies, which it may resolve with `resolveAsync`.
    public mutating func register<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(Service.self, name: name, scope: scope, file: file, line: line, factory: factory)
        }
    }

    /// Registers a factory that takes runtime arguments, in place of the hive's registration with the same
    /// argument types.
    ///
    /// ```swift
    /// $0.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in MockGreeter(name: name) }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from the resolver and the arguments passed to `resolve`.
    public mutating func register<Service, First, each Rest>(
        _ service: Service.Type, name: String? = nil, file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (ServiceHive.Resolver, First, repeat each Rest) throws -> Service
    ) {
        let arguments = ArgumentPack.signature(First.self, repeat (each Rest).self)
        replace([RegistrationKey(Service.self, name: name, arguments: arguments)], file: file, line: line) {
            try $0.register(Service.self, name: name, file: file, line: line, factory: factory)
        }
    }

    /// Registers an instance that already exists, in place of the hive's registration. Every resolve returns it.
    ///
    /// ```swift
    /// $0.register(Clock.self, instance: FixedClock())
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - instance: The instance to return, evaluated once, when you register.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    public mutating func register<Service>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) {
        let instance = instance()
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(Service.self, name: name, instance: instance, file: file, line: line)
        }
    }

    /// Exposes a registration of this builder under another type as well, in place of the hive's registration
    /// of that type.
    ///
    /// ```swift
    /// $0.register(MockStore.self, scope: .singleton) { MockStore() }
    /// $0.forward(Reader.self, to: MockStore.self) { $0 }
    /// ```
    ///
    /// A forward resolves its target as the overridden hive would, so it follows a later registration of the
    /// target in this builder, which replaces the first without removing the forward.
    ///
    /// - Precondition: The target is registered in this builder before the forward. To forward to one of the
    ///   hive's own registrations, leave the forward unchanged, or register the service with a factory that
    ///   resolves the target.
    ///
    /// - Parameters:
    ///   - service: The type to expose, usually a protocol.
    ///   - name: A name for the exposed registration, or `nil`.
    ///   - target: The type registered in this builder.
    ///   - targetName: The target registration's name, or `nil`.
    ///   - file: The file, recorded for errors and introspection.
    ///   - line: The line.
    ///   - convert: Converts the target to `service`; `{ $0 }` for a type that conforms.
    public mutating func forward<Service, Target>(
        _ service: Service.Type, name: String? = nil, to target: Target.Type, named targetName: String? = nil,
        file: String = #fileID, line: UInt = #line, as convert: @escaping @Sendable (Target) -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.forward(
                Service.self, name: name, to: Target.self, named: targetName, file: file, line: line, as: convert)
        }
    }
}

// The overloads the compiler picks when `Service` is known to be `Sendable`, as the hive's own twins are (see
// `ServiceHive+RegisterSendable.swift`): each calls the same `register` of the overrides' hive as its documented twin,
// where the compiler picks the hive's `Sendable` overload in turn.

extension ServiceHive.Overrides {
    /// Registers a factory that builds a `Sendable` service, in place of the hive's.
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory, completed: completed)
        }
    }

    /// Registers a factory of a `Sendable` service that resolves its dependencies, in place of the hive's.
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory, completed: completed)
        }
    }

    /// Registers an `async` factory of a `Sendable` service, in place of the hive's registration.
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(Service.self, name: name, scope: scope, file: file, line: line, factory: factory)
        }
    }

    /// Registers a factory of a `Sendable` service that takes runtime arguments, in place of the hive's.
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable, First, each Rest>(
        _ service: Service.Type, name: String? = nil, file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (ServiceHive.Resolver, First, repeat each Rest) throws -> Service
    ) {
        let arguments = ArgumentPack.signature(First.self, repeat (each Rest).self)
        replace([RegistrationKey(Service.self, name: name, arguments: arguments)], file: file, line: line) {
            try $0.register(Service.self, name: name, file: file, line: line, factory: factory)
        }
    }

    /// Registers an instance of a `Sendable` service, in place of the hive's registration.
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) {
        let instance = instance()
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(Service.self, name: name, instance: instance, file: file, line: line)
        }
    }

    /// Exposes a registration of this builder under a `Sendable` type as well.
    @_documentation(visibility: internal)
    public mutating func forward<Service: Sendable, Target>(
        _ service: Service.Type, name: String? = nil, to target: Target.Type, named targetName: String? = nil,
        file: String = #fileID, line: UInt = #line, as convert: @escaping @Sendable (Target) -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.forward(
                Service.self, name: name, to: Target.self, named: targetName, file: file, line: line, as: convert)
        }
    }
}
