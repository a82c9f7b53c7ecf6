extension ServiceHive {
    // MARK: - Registering

    /// Registers a factory that builds `service`.
    ///
    /// ```swift
    /// try hive.register(TradeService.self) { LiveTradeService() }
    /// try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
    /// try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
    /// ```
    ///
    /// The override builder of ``withOverrides(strict:_:operation:)``, ``Overrides``, has every form here, with the
    /// same parameters, and registers an override with it.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds. The default, ``Scope/transient``, builds a new
    ///     instance for each resolve.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance. It may throw; a failure caches nothing.
    ///   - completed: A post-construction hook; see ``register(_:name:scope:file:line:factory:completed:)``.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service and name without arguments. The first registration stays.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try register(
            Maker(making: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .unknown)
    }

    /// Registers a factory that resolves its dependencies through a ``Resolver``.
    ///
    /// ```swift
    /// try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// The resolver resolves from this hive; for a shared instance that a child hive resolves, still from this hive,
    /// so that it never captures the child's services. Nested resolves share the chain used to detect cycles, and the
    /// `.graph` instances of the current resolve.
    ///
    /// **Post-construction hook.** `completed` runs right after the factory, once the instance is where it lives: in
    /// its object graph for `.graph`, and for a shared scope visible to this thread, though not yet to others. So two
    /// objects that point at each other can be built in one resolve:
    ///
    /// ```swift
    /// try hive.register(Parent.self, scope: .graph) { _ in Parent() } completed: { r, parent in
    ///     parent.child = try r.resolve(Child.self)  // whose factory resolves this same Parent
    /// }
    /// ```
    ///
    /// If the hook throws, nothing is cached, and the resolve fails with
    /// ``ServiceHiveError/factoryFailed(_:chain:underlying:)`` naming the hook.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies. It may throw; a failure caches nothing.
    ///   - completed: Runs after the factory, with the instance; `nil` for none.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service and name without arguments.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Service,
        completed: (@Sendable (Resolver, Service) throws -> Void)? = nil
    ) throws {
        try register(
            Maker(resolving: factory, completed: completed), name: name, scope: scope,
            site: RegistrationSite(fileID: file, line: line), sendable: .unknown)
    }

    /// Registers an `async` factory: for a service that must await something to be built, such as opening a
    /// connection pool or loading configuration.
    ///
    /// ```swift
    /// try hive.register(Database.self, scope: .singleton) { r async throws in try await LiveDatabase.connect() }
    /// let database = try await hive.resolveAsync(Database.self)
    /// ```
    ///
    /// Only ``ServiceHive/Resolving/resolveAsync(_:name:)`` builds it; a synchronous resolve fails with
    /// ``ServiceHiveError/requiresAsync(_:chain:)``. A `.singleton` or named-scope instance is built exactly once even
    /// when many tasks ask for it at once, in a task of its own: a caller that is cancelled while it waits keeps
    /// waiting, and its cancellation neither cancels the construction nor fails it for the others. A cycle between
    /// async singletons fails with ``ServiceHiveError/circularDependency(_:)``, and never hangs.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds; any scope but `.weak`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies, which it may resolve with `resolveAsync`.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` for a duplicate;
    ///   ``ServiceHiveError/registrationRefused(_:reason:fix:)`` for `.weak`.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) async throws -> Service
    ) throws {
        try register(
            Maker(async: factory), name: name, scope: scope, site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown)
    }

    /// Registers a factory that takes runtime arguments, of any number and types.
    ///
    /// ```swift
    /// try hive.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
    /// let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
    /// ```
    ///
    /// A registration is identified by its service, name and argument types, so the same service may be registered
    /// once per argument list. Each resolve passes new arguments, so these registrations are always transient.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from the resolver and the arguments passed to `resolve`.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service, name and argument types.
    @inlinable
    public func register<Service, First, each Rest>(
        _ service: Service.Type,
        name: String? = nil,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service
    ) throws {
        try register(
            ArgumentFactory(factory), name: name, site: RegistrationSite(fileID: file, line: line), sendable: false)
    }

    /// Registers an instance that already exists. Every resolve returns it.
    ///
    /// ```swift
    /// try hive.register(Clock.self, instance: SystemClock())
    /// ```
    ///
    /// `instance` is evaluated once, when you register. A trailing closure is always a factory, never an instance:
    /// `register(Any.self) { 42 }` registers a factory that returns 42. The registration is a ``Scope/singleton``
    /// whose instance is already built; ``resetInstances()`` keeps returning the same instance.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - instance: The instance to return.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service and name without arguments.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        instance: @autoclosure () -> Service,
        file: String = #fileID,
        line: UInt = #line
    ) throws {
        let instance = instance()
        try add(site: RegistrationSite(fileID: file, line: line)) { site in
            Entry(Service.self, name: name, instance: instance, site: site, sendable: .unknown)
        }
    }

    // MARK: - Internals

    /// Adds a registration whose factory takes runtime arguments; the `@inlinable` `register` builds the factory.
    ///
    /// - Parameter sendable: Whether the caller's `Service` is known to be `Sendable`.
    @usableFromInline
    func register<Service>(
        _ factory: ArgumentFactory<Service>, name: String?, site: RegistrationSite, sendable: Bool
    ) throws {
        try register(factory, name: name, site: site, sendable: sendable, declared: nil)
    }

    /// Adds a registration whose factory takes runtime arguments and declares the dependencies `declared`, or `nil`.
    func register<Service>(
        _ factory: ArgumentFactory<Service>, name: String?, site: RegistrationSite, sendable: Bool,
        declared: [DeclaredDependency]?
    ) throws(ServiceHiveError) {
        try add(site: site) { site in
            Entry(
                Service.self, name: name, scope: .transient, arguments: factory.signature,
                argumentTypes: factory.types, site: site, factory: Maker(factory.make),
                sendable: sendable ? .declared : .unknown, declared: declared)
        }
    }

    /// Adds the entry `make` builds for `site`, attributed to the module being installed, if any. The one write path
    /// into a hive's registrations.
    /// Adds a registration of `factory`, synchronous or async; every `register` without arguments comes here.
    func register<Service>(
        _ factory: Maker<Service>, name: String?, scope: Scope, site: RegistrationSite, sendable: Sendability,
        declared: [DeclaredDependency]? = nil
    ) throws(ServiceHiveError) {
        guard scope != .weak || factory.makeAsync == nil else {
            throw .registrationRefused(
                ServiceKey(Service.self, name: name), reason: "an async factory cannot build a .weak instance",
                fix: "register it as .singleton, or in a named scope, or give it a synchronous factory")
        }
        try add(site: site) { site in
            Entry(
                Service.self, name: name, scope: scope, site: site, factory: factory, sendable: sendable,
                declared: declared)
        }
    }

    ///
    /// While the modules of an install register, the entry is staged in the install instead: refused here if the hive
    /// has its place, as it would be, and added with the others once the install has checked what they declare, where
    /// two staged registrations with one place are refused.
    func add(site: RegistrationSite, _ make: (RegistrationSite) -> Entry) throws(ServiceHiveError) {
        var site = site
        let recorder = InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
        let registering = recorder?.registering
        site.module = registering?.module
        let entry = make(site)
        if let recorder, registering?.isStaging == true {
            try family.withLock { (state) throws(ServiceHiveError) in try state.refuseTaken(entry, in: id) }
            if recorder.stage(entry) { return }
        }
        try family.withLock { (state) throws(ServiceHiveError) in
            try state.insert(entry, into: id)
        }
        recorder?.added(entry)
    }
}

extension HiveFamily {
    /// Registers `entry` in the hive `id`, unless the key is taken there, or, for a contribution, its name.
    mutating func insert(_ entry: Entry, into id: HiveID) throws(ServiceHiveError) {
        try refuseTaken(entry, in: id)
        let sequence = takeSequence()
        hives[id.index].registry.insert(Record(entry: entry, sequence: sequence))
    }

    /// Refuses `entry` when its key is taken in the hive `id`, or, for a contribution, its name.
    func refuseTaken(_ entry: Entry, in id: HiveID) throws(ServiceHiveError) {
        let existing =
            hives[id.index].registry[entry.key]
            ?? entry.contributionName.flatMap { hives[id.index].registry.contribution(named: $0, like: entry) }
        if let existing {
            throw .alreadyRegistered(existing.entry.serviceKey, existing: existing.entry.site, rejected: entry.site)
        }
    }
}
