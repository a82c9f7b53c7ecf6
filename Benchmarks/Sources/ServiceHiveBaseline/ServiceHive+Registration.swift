extension ServiceHive {
    // MARK: - Registering factories

    /// Registers a factory that builds `service`.
    ///
    /// ```swift
    /// try hive.register(TradeService.self) { LiveTradeService() }
    /// try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
    /// try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds. The default, ``Scope/transient``, builds a new
    ///     instance for each resolve.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance. It may throw; a failure caches nothing.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service and name without arguments. The first registration stays.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable () throws -> Service
    ) throws(ServiceHiveError) {
        try add(
            PendingRegistration(name: name, scope: scope, factory: factory),
            site: RegistrationSite(fileID: file, line: line))
    }

    /// Registers a factory that resolves its dependencies through a ``Resolver``.
    ///
    /// ```swift
    /// try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// The resolver resolves from this hive, or, when a child hive resolves a shared instance registered here,
    /// still from this hive. Nested resolves share the chain used to detect cycles, and the `.graph` instances of
    /// the current resolve.
    ///
    /// - Parameters:
    ///   - service: The type callers resolve, usually a protocol.
    ///   - name: A name that tells variants of the same service apart, or `nil`.
    ///   - scope: How long the hive keeps what the factory builds.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds an instance from its dependencies. It may throw; a failure caches nothing.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   registration for the same service and name without arguments.
    public func register<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Service
    ) throws(ServiceHiveError) {
        try add(
            PendingRegistration(name: name, scope: scope, factory: factory),
            site: RegistrationSite(fileID: file, line: line))
    }

    /// Registers a factory that takes runtime arguments, of any number and types.
    ///
    /// ```swift
    /// try hive.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
    /// let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
    /// ```
    ///
    /// A registration is identified by its service, name and argument types, so the same service may be
    /// registered once per argument list. Each resolve passes new arguments, so these registrations are always
    /// transient. A closure that takes only the resolver registers a transient factory without arguments.
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
    public func register<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, repeat each Argument) throws -> Service
    ) throws(ServiceHiveError) {
        try addArgumentRegistration(
            ArgumentFactory(factory), name: name, site: RegistrationSite(fileID: file, line: line))
    }

    /// Registers an instance that already exists. Every resolve returns it.
    ///
    /// ```swift
    /// try hive.register(TradeService.self, instance: prebuilt)
    /// ```
    ///
    /// The registration is a ``Scope/singleton`` whose instance is already built; ``resetInstances()`` keeps
    /// returning the same instance.
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
        instance: Service,
        file: String = #fileID,
        line: UInt = #line
    ) throws(ServiceHiveError) {
        try add(PendingRegistration(name: name, instance: instance), site: RegistrationSite(fileID: file, line: line))
    }

    // MARK: - Removing and querying

    /// Removes this hive's registration of `service` without arguments, and drops its cached instance.
    ///
    /// A parent's registration of the same service is untouched, and becomes visible through this hive again.
    /// A construction in progress on another thread finishes for its caller but is not cached.
    ///
    /// - Parameters:
    ///   - service: The registered type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: Whether a registration was removed.
    @discardableResult
    public func unregister<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        remove(RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: nil))
    }

    /// Removes this hive's registration of `service` that takes the given argument types.
    ///
    /// ```swift
    /// hive.unregister(Greeter.self, arguments: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The registered type.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: The registration's argument types, in order.
    /// - Returns: Whether a registration was removed.
    @discardableResult
    public func unregister<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        arguments: repeat (each Argument).Type
    ) -> Bool {
        let signature = ArgumentPack.signature(repeat each arguments)
        return remove(RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: signature))
    }

    /// Whether resolving `service` without arguments would find a registration: in this hive, a parent, or an
    /// override scope active in the current task.
    ///
    /// - Parameters:
    ///   - service: The type to look for.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: `true` when a registration exists.
    public func isRegistered<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        contains(RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: nil))
    }

    /// Whether resolving `service` with arguments of the given types would find a registration.
    ///
    /// - Parameters:
    ///   - service: The type to look for.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: The argument types, in order.
    /// - Returns: `true` when a registration exists.
    public func isRegistered<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        arguments: repeat (each Argument).Type
    ) -> Bool {
        let signature = ArgumentPack.signature(repeat each arguments)
        return contains(RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: signature))
    }

    // MARK: - Internals

    /// Adds a registration whose factory takes runtime arguments; the `@inlinable` `register` builds the factory.
    @usableFromInline
    func addArgumentRegistration<Service>(
        _ factory: ArgumentFactory<Service>,
        name: String?,
        site: RegistrationSite
    ) throws(ServiceHiveError) {
        try add(factory.registration(name: name), site: site)
    }

    /// Adds a registration to this hive. The one write path into a hive's registry.
    func add<Service>(_ registration: PendingRegistration<Service>, site: RegistrationSite) throws(ServiceHiveError) {
        var site = site
        let recorder = InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
        if let recorder { site.module = recorder.currentModule }
        state.lock.lock()
        if let existing = state.registry.pointee.entry(for: registration.key)?.takeUnretainedValue() {
            state.lock.unlock()
            throw .alreadyRegistered(existing.serviceKey, existing: existing.site, rejected: site)
        }
        let entry = registration.makeEntry(site: site)
        entry.sequence = state.counters.pointee.nextSequence
        state.counters.pointee.nextSequence += 1
        state.counters.pointee.generation &+= 1
        let replaced = state.registry.pointee.store(entry)
        state.lock.unlock()
        assert(replaced == nil, "the duplicate check above keeps keys unique")
        recorder?.record(entry)
    }

    private func remove(_ key: RegistrationKey) -> Bool {
        let removed = state.lock.withLock { removeLocked(key) }
        // The entry and its instance are released here, outside the lock: a `deinit` may resolve.
        return removed != nil
    }

    /// Removes exactly these entries, where they are still registered: what a failed install rolls back.
    func roll(back entries: [Entry]) {
        let removed = state.lock.withLock { () -> [(Entry, Slot)] in
            entries.compactMap { entry in
                let current = state.registry.pointee.entry(for: entry.key)
                guard current?.toOpaque() == Unmanaged.passUnretained(entry).toOpaque() else { return nil }
                return removeLocked(entry.key)
            }
        }
        // Released here, outside the lock: a `deinit` may resolve.
        withExtendedLifetime(removed) {}
    }

    /// Removes the entry under `key` and empties its slot; returns both, for the caller to release after
    /// unlocking. Called with the family lock held.
    private func removeLocked(_ key: RegistrationKey) -> (Entry, Slot)? {
        guard let entry = state.registry.pointee.remove(key) else { return nil }
        state.counters.pointee.generation &+= 1
        entry.isRemoved = true
        return (entry, entry.replaceSlot(with: .empty))
    }

    private func contains(_ key: RegistrationKey) -> Bool {
        state.lock.withLock {
            let scopes = state.counters.pointee.liveScopes == 0 ? nil : OverrideScope.current
            return find(key, scopes: scopes) != nil
        }
    }
}
