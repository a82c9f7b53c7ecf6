// Registration by initializer, for an initializer of one to four parameters: the same as the form with a parameter
// pack, `register(_:name:scope:file:line:initializer:)`, which the compiler prefers these to. A function type whose
// parameters are a pack always borrows them (Swift 6.3 drops `consuming` in a pack expansion), so each parameter the
// pack form resolves is retained again by the initializer and released after it, and the resolves run in a loop over
// the pack: a transient with three dependencies cost 1,883 instructions through the pack, 1,704 through these, against
// 1,680 for the same closure (`Benchmarks/count-instructions 29c` against `03`). Hidden from the documentation, as
// the `Sendable` twins are: a reader sees the one form.

extension ServiceHive {
    // MARK: - Registering by initializer

    /// Registers `service`, built by an initializer of one parameter, resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service, D1>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: false,
            declaring: D1.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers a `Sendable` service built by an initializer of one parameter, resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, D1>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: true,
            declaring: D1.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers `service`, built by an initializer of two parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service, D1, D2>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: false,
            declaring: D1.self, D2.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers a `Sendable` service built by an initializer of two parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, D1, D2>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: true,
            declaring: D1.self, D2.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers `service`, built by an initializer of three parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service, D1, D2, D3>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: false,
            declaring: D1.self, D2.self, D3.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers a `Sendable` service built by an initializer of three parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, D1, D2, D3>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: true,
            declaring: D1.self, D2.self, D3.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers `service`, built by an initializer of four parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service, D1, D2, D3, D4>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3, consuming D4) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: false,
            declaring: D1.self, D2.self, D3.self, D4.self, factory: Self.initializerFactory(initializer))
    }

    /// Registers a `Sendable` service built by an initializer of four parameters, each resolved by its type.
    ///
    /// The same as `register(_:name:scope:file:line:initializer:)`, which the compiler chooses this for.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the initializer builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - initializer: Builds an instance from its parameters, each resolved by its type.
    /// - Throws: A ``ServiceHiveError``, as `register(_:name:scope:file:line:initializer:)` does.
    @_disfavoredOverload
    @_documentation(visibility: internal)
    @inlinable
    public func register<Service: Sendable, D1, D2, D3, D4>(
        _ service: Service.Type, name: String? = nil, scope: Scope = .transient, file: String = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3, consuming D4) throws -> Service
    ) throws {
        try register(
            Service.self, name: name, scope: scope, site: RegistrationSite(fileID: file, line: line), sendable: true,
            declaring: D1.self, D2.self, D3.self, D4.self, factory: Self.initializerFactory(initializer))
    }

    // MARK: - Internals

    /// The factory of a registration by an initializer of one parameter, as the pack form's
    /// `initializerFactory(_:)`: plain resolves when no parameter is a collection.
    @inlinable
    static func initializerFactory<Service, D1>(
        _ initializer: @escaping @Sendable (consuming D1) throws -> Service
    ) -> @Sendable (Resolver, UnsafeRawPointer?) throws -> Service {
        guard ParameterResolution.includesCollection(D1.self) else {
            return { resolver, _ in
                try initializer(
                    try resolver.resolve(D1.self, name: nil, requiresSendable: false))
            }
        }
        let p1 = Parameter(D1.self)
        return { resolver, _ in
            try initializer(try p1.resolve(with: resolver))
        }
    }

    /// The factory of a registration by an initializer of two parameters, as the pack form's
    /// `initializerFactory(_:)`: plain resolves when no parameter is a collection.
    @inlinable
    static func initializerFactory<Service, D1, D2>(
        _ initializer: @escaping @Sendable (consuming D1, consuming D2) throws -> Service
    ) -> @Sendable (Resolver, UnsafeRawPointer?) throws -> Service {
        guard ParameterResolution.includesCollection(D1.self, D2.self) else {
            return { resolver, _ in
                try initializer(
                    try resolver.resolve(D1.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D2.self, name: nil, requiresSendable: false))
            }
        }
        let p1 = Parameter(D1.self)
        let p2 = Parameter(D2.self)
        return { resolver, _ in
            try initializer(try p1.resolve(with: resolver), try p2.resolve(with: resolver))
        }
    }

    /// The factory of a registration by an initializer of three parameters, as the pack form's
    /// `initializerFactory(_:)`: plain resolves when no parameter is a collection.
    @inlinable
    static func initializerFactory<Service, D1, D2, D3>(
        _ initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3) throws -> Service
    ) -> @Sendable (Resolver, UnsafeRawPointer?) throws -> Service {
        guard ParameterResolution.includesCollection(D1.self, D2.self, D3.self) else {
            return { resolver, _ in
                try initializer(
                    try resolver.resolve(D1.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D2.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D3.self, name: nil, requiresSendable: false))
            }
        }
        let p1 = Parameter(D1.self)
        let p2 = Parameter(D2.self)
        let p3 = Parameter(D3.self)
        return { resolver, _ in
            try initializer(
                try p1.resolve(with: resolver), try p2.resolve(with: resolver), try p3.resolve(with: resolver))
        }
    }

    /// The factory of a registration by an initializer of four parameters, as the pack form's
    /// `initializerFactory(_:)`: plain resolves when no parameter is a collection.
    @inlinable
    static func initializerFactory<Service, D1, D2, D3, D4>(
        _ initializer: @escaping @Sendable (consuming D1, consuming D2, consuming D3, consuming D4) throws -> Service
    ) -> @Sendable (Resolver, UnsafeRawPointer?) throws -> Service {
        guard ParameterResolution.includesCollection(D1.self, D2.self, D3.self, D4.self) else {
            return { resolver, _ in
                try initializer(
                    try resolver.resolve(D1.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D2.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D3.self, name: nil, requiresSendable: false),
                    try resolver.resolve(D4.self, name: nil, requiresSendable: false))
            }
        }
        let p1 = Parameter(D1.self)
        let p2 = Parameter(D2.self)
        let p3 = Parameter(D3.self)
        let p4 = Parameter(D4.self)
        return { resolver, _ in
            try initializer(
                try p1.resolve(with: resolver), try p2.resolve(with: resolver), try p3.resolve(with: resolver),
                try p4.resolve(with: resolver))
        }
    }
}
