extension ServiceHive.Overrides {
    // MARK: - Registering by initializer

    /// Registers `service`, built by an initializer whose parameters are resolved by their types, in place of the
    /// hive's.
    ///
    /// ```swift
    /// $0.register(Orders.self, scope: .singleton, initializer: RecordingOrders.init)
    /// ```
    ///
    /// The hive's `register(_:name:scope:file:line:initializer:)`
    /// with the same parameters, except that it replaces a registration of the same service and name made before in
    /// this builder. Each parameter resolves with the other overrides in place.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Precondition: The initializer does not take the very service it overrides, which would need itself built
    ///   first; take a ``ServiceHive/Lazy`` of it, or a named registration of another implementation.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    public mutating func register<Service, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, site: ServiceHive.RegistrationSite(fileID: file, line: line),
                sendable: .unknown, initializer: initializer)
        }
    }

    /// Registers `service`, built by an `async` initializer whose parameters are resolved by their types, in place of
    /// the hive's.
    ///
    /// ```swift
    /// $0.register(Database.self, scope: .singleton, initializer: InMemoryDatabase.init)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds; any scope but `.weak`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved with `resolveAsync`.
    /// - Precondition: The scope is not `.weak`, and the initializer does not take the very service it overrides.
    // Disfavored: a trailing closure `{ LiveX() }` also fits `initializer:`, and would be taken for one, since the
    // closure forms leave `completed:` to its default (`InitializerRegistrationTests`, "closures stay closures").
    @_disfavoredOverload
    public mutating func register<Service, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, site: ServiceHive.RegistrationSite(fileID: file, line: line),
                sendable: .unknown, asyncInitializer: initializer)
        }
    }

    /// Registers a `Sendable` service built by an initializer, in place of the hive's.
    // Disfavored, as its twin is.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, site: ServiceHive.RegistrationSite(fileID: file, line: line),
                sendable: .declared, initializer: initializer)
        }
    }

    /// Registers a `Sendable` service built by an `async` initializer, in place of the hive's.
    // Disfavored, as its twin is.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    public mutating func register<Service: Sendable, each Dependency>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, initializer: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) {
        replace([RegistrationKey(Service.self, name: name)], file: file, line: line) {
            try $0.register(
                Service.self, name: name, scope: scope, site: ServiceHive.RegistrationSite(fileID: file, line: line),
                sendable: .declared, asyncInitializer: initializer)
        }
    }
}
