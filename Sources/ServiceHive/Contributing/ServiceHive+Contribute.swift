extension ServiceHive {
    // MARK: - Contributing

    /// Adds an implementation to the collection of `service`: one of many, which
    /// ``ServiceHive/Resolving/resolveAll(_:)`` returns together.
    ///
    /// ```swift
    /// try hive.contribute(HealthCheck.self, scope: .singleton) { DiskCheck() }
    /// try hive.contribute(HealthCheck.self, name: "database", scope: .singleton) { DatabaseCheck() }
    ///
    /// let checks: [any HealthCheck] = try hive.resolveAll()  // both, in the order contributed
    /// ```
    ///
    /// Each module adds its own, and whoever needs them all resolves the collection, without a list that imports every
    /// module. A contribution is a registration of its own, apart from any registration of `service`: it has its scope,
    /// its factory, an optional name and its site, and ``registrations``, ``validate(_:)``, the dependency graph,
    /// rollback of a failed install and ``withOverrides(strict:_:operation:)`` all know it. The article
    /// <doc:ContributingToCollections> describes the order and the overrides.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name that tells this contribution apart from the others of this hive's collection, or `nil`; it is
    ///     what ``removeContribution(_:name:)`` removes by.
    ///   - scope: How long the hive keeps what the factory builds. The default, ``Scope/transient``, builds a new
    ///     instance for each resolve of the collection.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance. It may throw; a failure fails the collection's resolve and caches nothing.
    ///   - completed: A post-construction hook, as for
    ///     ``register(_:name:scope:file:line:factory:completed:)-(_,_,_,_,_,()->Service,_)``; `nil` for none.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when a
    ///   contribution of this hive to the same collection has the same name; the first one stays.
    ///   ``ServiceHiveError/registrationRefused(_:reason:fix:)`` for a name that starts with the NUL character.
    public func contribute<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try contribute(
            Maker(making: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .unknown)
    }

    /// Adds an implementation that resolves its dependencies through a ``Resolver`` to the collection of `service`.
    ///
    /// ```swift
    /// try hive.contribute(HealthCheck.self, scope: .singleton) { r in DatabaseCheck(db: try r.resolve()) }
    /// ```
    ///
    /// The resolver resolves from this hive, as a registration's does; the factory may resolve collections too.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name that tells this contribution apart from the others of this hive's collection, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance from its dependencies. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook; `nil` for none.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when a
    ///   contribution of this hive to the same collection has the same name.
    public func contribute<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try contribute(
            Maker(resolving: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .unknown)
    }

    /// Adds an implementation with an `async` factory to the collection of `service`.
    ///
    /// ```swift
    /// try hive.contribute(HealthCheck.self, scope: .singleton) { r async throws in try await QueueCheck.connect() }
    /// let checks = try await hive.resolveAllAsync(HealthCheck.self)
    /// ```
    ///
    /// Only ``ServiceHive/Resolving/resolveAllAsync(_:)`` builds it; ``ServiceHive/Resolving/resolveAll(_:)`` of its
    /// collection fails with ``ServiceHiveError/requiresAsync(_:chain:)`` naming it, as a synchronous resolve of an
    /// async registration does.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name that tells this contribution apart from the others of this hive's collection, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds; any scope but `.weak`.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    ///   - factory: Builds the instance from its dependencies, which it may resolve with `resolveAsync`.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` for a name
    ///   taken; ``ServiceHiveError/registrationRefused(_:reason:fix:)`` for `.weak`.
    public func contribute<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) async throws -> Service
    ) throws {
        try contribute(
            Maker(async: factory), name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown)
    }

    /// Adds an instance that already exists to the collection of `service`.
    ///
    /// ```swift
    /// try hive.contribute(HealthCheck.self, instance: AlwaysHealthy())
    /// ```
    ///
    /// `instance` is evaluated once, when you contribute; every resolve of the collection returns it.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements, usually a protocol.
    ///   - name: A name that tells this contribution apart from the others of this hive's collection, or `nil`.
    ///   - instance: The instance.
    ///   - file: The file of the contribution, recorded for errors and introspection.
    ///   - line: The line of the contribution.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when a
    ///   contribution of this hive to the same collection has the same name.
    public func contribute<Service>(
        _ service: Service.Type,
        name: String? = nil,
        instance: @autoclosure () -> Service,
        file: String = #fileID,
        line: UInt = #line
    ) throws {
        try contribute(
            Service.self, name: name, instance: instance(), site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown)
    }

    // MARK: - Removing

    /// Removes this hive's contribution of the given name from the collection of `service`, and drops its cached
    /// instance.
    ///
    /// ```swift
    /// hive.removeContribution(HealthCheck.self, name: "database")
    /// ```
    ///
    /// The other contributions keep their order. A parent's contributions are untouched. Unnamed contributions are
    /// removed together, with ``removeContributions(of:)``.
    ///
    /// - Parameters:
    ///   - service: The type of the collection's elements.
    ///   - name: The contribution's name.
    /// - Returns: Whether a contribution was removed.
    @discardableResult
    public func removeContribution<Service>(_ service: Service.Type, name: String) -> Bool {
        remove(selecting: { $0.contributions(of: Service.self).filter { $0.contributionName == name }.map(\.key) })
            != 0
    }

    /// Removes every contribution of this hive to the collection of `service`, named or not, with their cached
    /// instances.
    ///
    /// ```swift
    /// hive.removeContributions(of: HealthCheck.self)
    /// ```
    ///
    /// A parent's contributions are untouched, and a child that resolves the collection still sees them.
    ///
    /// - Parameter service: The type of the collection's elements.
    /// - Returns: How many contributions were removed.
    @discardableResult
    public func removeContributions<Service>(of service: Service.Type) -> Int {
        remove(selecting: { $0.contributions(of: Service.self).map(\.key) })
    }

    // MARK: - Internals

    /// Adds a contribution of `factory`, synchronous or async; every `contribute` with a factory comes here.
    func contribute<Service>(
        _ factory: Maker<Service>, name: String?, scope: Scope, site: RegistrationSite, sendable: Sendability,
        declared: [DeclaredDependency]? = nil
    ) throws(ServiceHiveError) {
        try checkContribution(Service.self, name: name, site: site)
        guard scope != .weak || factory.makeAsync == nil else {
            throw .registrationRefused(
                ServiceKey(contributionTo: typeName(Service.self), name: name, site: site),
                reason: "an async factory cannot build a .weak instance",
                fix: "contribute it as .singleton, or in a named scope, or give it a synchronous factory")
        }
        try add(site: site) { site in
            Entry(
                Service.self, name: name, role: .contribution, scope: scope, site: site, factory: factory,
                sendable: sendable, declared: declared)
        }
    }

    /// Adds a contribution of an instance that already exists.
    func contribute<Service>(
        _: Service.Type, name: String?, instance: Service, site: RegistrationSite, sendable: Sendability
    ) throws(ServiceHiveError) {
        try checkContribution(Service.self, name: name, site: site)
        try add(site: site) { site in
            Entry(Service.self, name: name, role: .contribution, instance: instance, site: site, sendable: sendable)
        }
    }

    /// Refuses a contribution's name that could meet one of the names that tell contributions apart.
    private func checkContribution<Service>(
        _: Service.Type, name: String?, site: RegistrationSite
    ) throws(ServiceHiveError) {
        guard let name, name.first == ContributionNames.prefix else { return }
        throw .registrationRefused(
            ServiceKey(contributionTo: typeName(Service.self), name: name, site: site),
            reason: "a contribution's name cannot start with the NUL character, which the hive keeps for its own names",
            fix: "give it a name that starts with another character")
    }
}
