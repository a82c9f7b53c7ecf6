// The overloads the compiler picks when `Service` is known to be `Sendable`. Each does what its documented twin does,
// and records that the service's instances are `Sendable`, so that a resolve of `any P & Sendable` may return them;
// see `Sendability`. They are hidden from the documentation, where they would only repeat their twins.

extension ServiceHive {
    /// Registers a factory that builds a `Sendable` service.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try register(
            Maker(making: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared)
    }

    /// Registers a factory of a `Sendable` service that resolves its dependencies through a ``Resolver``.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (Resolver) throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try register(
            Maker(resolving: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared)
    }

    /// Registers an `async` factory of a `Sendable` service.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (Resolver) async throws -> Service
    ) throws {
        try register(
            Maker(async: factory), name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .declared)
    }

    /// Registers a factory of a `Sendable` service that takes runtime arguments.
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, First, each Rest>(
        _ service: Service.Type, name: String? = nil, file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service
    ) throws {
        try register(
            ArgumentFactory(factory), name: name, site: RegistrationSite(fileID: file, line: line), sendable: true)
    }

    /// Registers an instance of a `Sendable` service that already exists.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) throws {
        let instance = instance()
        try add(site: RegistrationSite(fileID: file, line: line)) { site in
            Entry(Service.self, name: name, instance: instance, site: site, sendable: .declared)
        }
    }

    /// Exposes a registration under a `Sendable` type as well.
    @_documentation(visibility: internal)
    public func forward<Service: Sendable, Target>(
        _ service: Service.Type, name: String? = nil, to target: Target.Type, named targetName: String? = nil,
        file: String = #fileID, line: UInt = #line, as convert: @escaping @Sendable (Target) -> Service
    ) throws {
        try forward(
            Service.self, name: name, to: Target.self, named: targetName,
            site: RegistrationSite(fileID: file, line: line),
            sendable: .declared, as: convert)
    }
}

extension ServiceHive.Provisions {
    /// Provides a `Sendable` instance as `service` in the child.
    @_documentation(visibility: internal)
    @inlinable
    public mutating func provide<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, _ instance: Service, file: String = #fileID, line: UInt = #line
    ) {
        provide(Service.self, name: name, Box(instance), file: file, line: line, declaredSendable: true)
    }
}

extension ServiceHive.ValidationPlan {
    /// Provides a sample of a `Sendable` service that is provided later.
    @_documentation(visibility: internal)
    public mutating func provide<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, _ sample: Service, file: String = #fileID, line: UInt = #line
    ) {
        provisions.provide(Service.self, name: name, sample, file: file, line: line)
    }
}

// Registration by initializer needs its twins for the same reason: whether `Service` is `Sendable` is known only here.

extension ServiceHive {
    /// Registers a `Sendable` service built by an initializer whose parameters the hive resolves.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: true,
            declaring: repeat (each Dependency).self, factory: Self.initializerFactory(initializer))
    }

    /// Registers a `Sendable` service built by an `async` initializer whose parameters the hive resolves.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    @_documentation(visibility: internal)
    public func register<Service: Sendable, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .declared, asyncInitializer: initializer)
    }

    /// Registers a `Sendable` service built by an initializer whose leading parameter is a runtime argument.
    @_documentation(visibility: internal)
    public func register<Service: Sendable, First, each Dependency>(
        _ service: Service.Type, name: String? = nil, arguments first: First.Type, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (First, repeat each Dependency) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, site: RegistrationSite(fileID: file, line: line), sendable: true,
            argument: First.self, initializer: initializer)
    }

    /// Registers a `Sendable` service built by an initializer whose two leading parameters are runtime arguments.
    @_documentation(visibility: internal)
    public func register<Service: Sendable, First, Second, each Dependency>(
        _ service: Service.Type, name: String? = nil, arguments first: First.Type, _ second: Second.Type,
        file: String = #fileID, line: UInt = #line,
        initializer: @escaping @Sendable (First, Second, repeat each Dependency) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, site: RegistrationSite(fileID: file, line: line), sendable: true,
            arguments: First.self, Second.self, initializer: initializer)
    }

    /// Registers a factory of a `Sendable` service that declares its dependencies.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, dependsOn dependencies: [Dependency],
        file: String = #fileID, line: UInt = #line, factory: @escaping @Sendable (Resolver) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, dependsOn: dependencies,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared, factory: factory)
    }

    /// Contributes a `Sendable` implementation built by an initializer whose parameters the hive resolves.
    // Disfavored, as its twin is.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    public func contribute<Service: Sendable, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) throws {
        try contribute(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .declared, initializer: initializer)
    }
}
