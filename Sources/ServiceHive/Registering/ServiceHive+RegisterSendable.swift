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
            Factory(making: factory, completed: completed), name: name, scope: scope,
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
            Factory(resolving: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared)
    }

    /// Registers an `async` factory of a `Sendable` service.
    @_documentation(visibility: internal)
    public func register<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (Resolver) async throws -> Service
    ) throws {
        try register(
            Factory(async: factory), name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
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
    public mutating func provide<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, _ instance: Service, file: String = #fileID, line: UInt = #line
    ) {
        provide(
            Service.self, name: name, instance, site: ServiceHive.RegistrationSite(fileID: file, line: line),
            sendable: .declared)
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
