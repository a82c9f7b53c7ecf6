// The overloads the compiler picks when `Service` is known to be `Sendable`, as `ServiceHive+RegisterSendable.swift`'s
// are: each does what its documented twin does, and records that the contribution's instances are `Sendable`, so that
// a resolve of a collection of `any P & Sendable` may return them. They are hidden from the documentation.

extension ServiceHive {
    /// Adds an implementation of a `Sendable` service to its collection.
    @_documentation(visibility: internal)
    public func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try contribute(
            Maker(making: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared)
    }

    /// Adds an implementation of a `Sendable` service that resolves its dependencies to its collection.
    @_documentation(visibility: internal)
    public func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (Resolver) throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try contribute(
            Maker(resolving: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .declared)
    }

    /// Adds an implementation of a `Sendable` service with an `async` factory to its collection.
    @_documentation(visibility: internal)
    public func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (Resolver) async throws -> Service
    ) throws {
        try contribute(
            Maker(async: factory), name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .declared)
    }

    /// Adds an instance of a `Sendable` service that already exists to its collection.
    @_documentation(visibility: internal)
    public func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) throws {
        try contribute(
            Service.self, name: name, instance: instance(), site: RegistrationSite(fileID: file, line: line),
            sendable: .declared)
    }
}
