extension ServiceHive.Overrides {
    // MARK: - Contributing

    /// Adds an implementation to the collection of `service`, inside the overrides: resolves of the collection in the
    /// operation return the hive's contributions and this one after them.
    ///
    /// ```swift
    /// hive.withOverrides {
    ///     $0.contribute(HealthCheck.self) { FailingCheck() }
    /// } operation: {
    ///     let checks = try hive.resolveAll(HealthCheck.self)  // the hive's, then FailingCheck
    /// }
    /// ```
    ///
    /// The hive's `contribute` with the same parameters. Within one builder, a second contribution with the same name
    /// replaces the first, as a second registration of one key does; unnamed ones are all kept, in the order
    /// contributed. To see only the overrides' contributions, replace the hive's with
    /// ``replaceContributions(of:file:line:)``.
    ///
    /// - Precondition: `name` does not start with the NUL character.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name for the contribution, or `nil`.
    ///   - scope: How long the overrides keep what the factory builds.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook, or `nil`.
    public mutating func contribute<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory,
                completed: completed)
        }
    }

    /// Adds an implementation that resolves its dependencies through a ``ServiceHive/Resolver`` to the collection of
    /// `service`, inside the overrides.
    ///
    /// ```swift
    /// $0.contribute(HealthCheck.self) { r in StubCheck(clock: try r.resolve()) }
    /// ```
    ///
    /// The resolver resolves from the hive being overridden, and sees the other overrides.
    ///
    /// - Precondition: `name` does not start with the NUL character.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name for the contribution, or `nil`.
    ///   - scope: How long the overrides keep what the factory builds.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance from its dependencies. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook, or `nil`.
    public mutating func contribute<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory,
                completed: completed)
        }
    }

    /// Adds an implementation with an `async` factory to the collection of `service`, inside the overrides.
    ///
    /// ```swift
    /// $0.contribute(HealthCheck.self, scope: .singleton) { _ in await StubCheck.make() }
    /// ```
    ///
    /// - Precondition: `scope` is not `.weak`, and `name` does not start with the NUL character.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name for the contribution, or `nil`.
    ///   - scope: How long the overrides keep what the factory builds; any scope but `.weak`.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance from its dependencies, which it may resolve with `resolveAsync`.
    public mutating func contribute<Service>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(Service.self, name: name, scope: scope, file: file, line: line, factory: factory)
        }
    }

    /// Adds an instance that already exists to the collection of `service`, inside the overrides.
    ///
    /// ```swift
    /// $0.contribute(HealthCheck.self, instance: FailingCheck())
    /// ```
    ///
    /// - Precondition: `name` does not start with the NUL character.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name for the contribution, or `nil`.
    ///   - instance: The instance, evaluated once, when you contribute.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    public mutating func contribute<Service>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) {
        let instance = instance()
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(Service.self, name: name, instance: instance, file: file, line: line)
        }
    }

    // MARK: - Replacing a collection

    /// Hides the hive's contributions to the collection of `service`, and its ancestors', inside the overrides: resolves
    /// of the collection in the operation return only the contributions of these overrides, and of inner ones.
    ///
    /// ```swift
    /// hive.withOverrides {
    ///     $0.replaceContributions(of: HealthCheck.self)
    ///     $0.contribute(HealthCheck.self) { FailingCheck() }
    /// } operation: {
    ///     let checks = try hive.resolveAll(HealthCheck.self)  // FailingCheck alone
    /// }
    /// ```
    ///
    /// Alone, it makes the collection empty. It hides what outer overrides contribute to this hive and its ancestors
    /// too; the contributions of a child hive that resolves the collection stay. It counts as an override of the
    /// collection in a strict ``ServiceHive/withOverrides(strict:_:operation:)``.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements.
    ///   - file: The file, recorded for introspection.
    ///   - line: The line.
    public mutating func replaceContributions<Service>(
        of service: Service.Type, file: String = #fileID, line: UInt = #line
    ) {
        replace([RegistrationKey(collectionOf: Service.self, name: nil)], file: file, line: line) { hive in
            try hive.add(site: ServiceHive.RegistrationSite(fileID: file, line: line)) { site in
                Entry(collectionOf: Service.self, site: site)
            }
        }
    }

    /// The key of the contribution named `name` that this builder made before, if any: a later one replaces it.
    private func contributions<Service>(of _: Service.Type, named name: String?) -> [RegistrationKey] {
        guard let name else { return [] }
        return hive.family.withLock { state in
            state.withRegistry(hive.id) { registry in
                registry.contributions(of: Service.self).filter { $0.contributionName == name }.map(\.key)
            } ?? []
        }
    }
}

// The overloads the compiler picks when `Service` is known to be `Sendable`, as the hive's own twins are: each calls the
// same `contribute` of the overrides' hive as its documented twin, where the compiler picks the hive's `Sendable`
// overload in turn.

extension ServiceHive.Overrides {
    /// Adds an implementation of a `Sendable` service to its collection, inside the overrides.
    @_documentation(visibility: internal)
    public mutating func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory, completed: completed)
        }
    }

    /// Adds an implementation of a `Sendable` service that resolves its dependencies, inside the overrides.
    @_documentation(visibility: internal)
    public mutating func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(
                Service.self, name: name, scope: scope, file: file, line: line, factory: factory, completed: completed)
        }
    }

    /// Adds an implementation of a `Sendable` service with an `async` factory, inside the overrides.
    @_documentation(visibility: internal)
    public mutating func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, scope: ServiceHive.Scope = .transient, file: String = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service
    ) {
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(Service.self, name: name, scope: scope, file: file, line: line, factory: factory)
        }
    }

    /// Adds an instance of a `Sendable` service to its collection, inside the overrides.
    @_documentation(visibility: internal)
    public mutating func contribute<Service: Sendable>(
        _ service: Service.Type, name: String? = nil, instance: @autoclosure () -> Service, file: String = #fileID,
        line: UInt = #line
    ) {
        let instance = instance()
        replace(contributions(of: Service.self, named: name), file: file, line: line) {
            try $0.contribute(Service.self, name: name, instance: instance, file: file, line: line)
        }
    }
}
