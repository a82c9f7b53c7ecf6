extension ServiceHive.Resolving {
    /// Resolves every contribution to the collection of `service`, in order.
    ///
    /// ```swift
    /// try hive.contribute(HealthCheck.self, scope: .singleton) { DiskCheck() }
    /// try hive.contribute(HealthCheck.self, scope: .singleton) { r in DatabaseCheck(db: try r.resolve()) }
    ///
    /// let checks: [any HealthCheck] = try hive.resolveAll()
    /// let same = try hive.resolveAll(HealthCheck.self)
    /// ```
    ///
    /// A collection with no contributions is empty: resolving it never fails for want of one. Each contribution is
    /// resolved as its scope says, as a single resolve of it would be, and a failure is reported as a single resolve's
    /// is: its key names the contribution and where it was made, and the chain ends with the collection, such as
    /// `[HealthCheck]`.
    ///
    /// **The order.** The contributions of the root hive first, down to this hive's, each hive's in the order they were
    /// made: for modules, the order the modules install in, then the order each module contributed in, the
    /// contributions made in ``ServiceModule/start(in:)`` after all those made in ``ServiceModule/register(in:)``.
    /// After each hive's own come those that the current task's overrides add to it, the outer overrides' first.
    ///
    /// **Speed.** When every contribution's instance is cached, the collection costs one lookup, without a lock once
    /// the thread has resolved it, and each element a copy: far less than resolving each.
    ///
    /// - Parameter service: The type of the collection's elements. It can be inferred from the context.
    /// - Returns: The instances, one per contribution, in order.
    /// - Throws: A ``ServiceHiveError``, as ``resolve(_:name:)`` does for the contribution that failed;
    ///   ``ServiceHiveError/requiresAsync(_:chain:)`` for a contribution with an `async` factory, which
    ///   ``resolveAllAsync(_:)`` builds; ``ServiceHiveError/notOverridden(_:chain:)`` inside a strict
    ///   ``ServiceHive/withOverrides(strict:_:operation:)`` that neither contributes to the collection nor replaces it.
    @inlinable
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws -> [Service] {
        try resolver.resolveAll(Service.self, requiresSendable: false)
    }

    /// Resolves every contribution to the collection of `service`, in order, awaiting the `async` factories.
    ///
    /// ```swift
    /// let checks = try await hive.resolveAllAsync(HealthCheck.self)
    /// ```
    ///
    /// It resolves every contribution, and one with a synchronous factory as ``resolveAll(_:)`` would; the order and the
    /// errors are those of ``resolveAll(_:)``. It runs on the caller's executor, as ``resolveAsync(_:name:)`` does.
    ///
    /// - Parameter service: The type of the collection's elements. It can be inferred from the context.
    /// - Returns: The instances, one per contribution, in order.
    /// - Throws: A ``ServiceHiveError``, as ``resolveAll(_:)`` does.
    @inlinable
    nonisolated(nonsending) public func resolveAllAsync<Service>(_ service: Service.Type = Service.self) async throws
        -> [Service]
    {
        try await resolver.resolveAllAsync(Service.self, requiresSendable: false)
    }
}

// The overloads the compiler picks when `Service` is known to be `Sendable`, as `Resolving.swift`'s
// are: each refuses a contribution made where the service was not known to be `Sendable`.

extension ServiceHive.Resolving {
    /// Resolves every contribution to the collection of a `Sendable` service, in order.
    @_documentation(visibility: internal)
    @inlinable
    public func resolveAll<Service: Sendable>(_ service: Service.Type = Service.self) throws -> [Service] {
        try resolver.resolveAll(Service.self, requiresSendable: true)
    }

    /// Resolves every contribution to the collection of a `Sendable` service, in order, awaiting async factories.
    @_documentation(visibility: internal)
    @inlinable
    nonisolated(nonsending) public func resolveAllAsync<Service: Sendable>(_ service: Service.Type = Service.self)
        async throws -> [Service]
    {
        try await resolver.resolveAllAsync(Service.self, requiresSendable: true)
    }
}

extension ServiceHive.Resolver {
    /// The entry point of the inlinable `resolveAll` methods of ``ServiceHive/Resolving``.
    ///
    /// Inlinable, so that the values of the contributions' cached instances are copied out, and read back, in code
    /// specialized for `Service`: in the engine's generic code, each copy goes through the type's witnesses and the
    /// array is allocated after a lookup of its metadata (`Benchmarks/count-instructions 28`, when it copied on every
    /// resolve: 2,117 instructions, not 3,291).
    @inlinable
    func resolveAll<Service>(_: Service.Type, requiresSendable: Bool) throws -> [Service] {
        if let kept = keptCollection(of: Service.self, requiresSendable: requiresSendable, async: false) {
            // Safe: as below. Copied before the read ends, after which a change may let the snapshot go.
            let values = kept._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<[Service]>.self).value }
            endRead()
            return values
        }
        if let values = cachedCollection(
            of: Service.self, requiresSendable: requiresSendable, async: false,
            make: { Self.snapshot(Service.self, $0) })
        {
            // Safe: the values of a collection of `Service` are made by `snapshot(_:_:)` for `Service`.
            return unsafeDowncast(values, to: Box<[Service]>.self).value
        }
        return try resolveAllUncached(Service.self, requiresSendable: requiresSendable)
    }

    /// The entry point of the inlinable `resolveAllAsync` methods of ``ServiceHive/Resolving``; inlinable, as
    /// `resolveAll` is.
    @inlinable
    nonisolated(nonsending) func resolveAllAsync<Service>(_: Service.Type, requiresSendable: Bool) async throws
        -> [Service]
    {
        if let kept = keptCollection(of: Service.self, requiresSendable: requiresSendable, async: true) {
            // Safe: as in `resolveAll`.
            let values = kept._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<[Service]>.self).value }
            endRead()
            return values
        }
        if let values = cachedCollection(
            of: Service.self, requiresSendable: requiresSendable, async: true, make: { Self.snapshot(Service.self, $0) }
        ) {
            // Safe: as in `resolveAll`.
            return unsafeDowncast(values, to: Box<[Service]>.self).value
        }
        return try await resolveAllAsyncUncached(Service.self, requiresSendable: requiresSendable)
    }

    /// The values of `instances`, each a `Box<Service>`, in a `Box<[Service]>`, read with the family lock held, which
    /// keeps them alive: read through `_withUnsafeGuaranteedRef`, as the engine reads a cached instance, they are not
    /// retained.
    @inlinable
    static func snapshot<Service>(
        _: Service.Type, _ instances: UnsafeBufferPointer<Unmanaged<Instance>>
    ) -> any AnyObject & Sendable {
        var values: [Service] = []
        values.reserveCapacity(instances.count)
        for instance in instances {
            // Safe: only `Maker.box` makes the instances cached for a contribution, each a `Box` of its service type.
            values.append(instance._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<Service>.self).value })
        }
        return Box.collection(values)
    }

    /// The snapshot of the values of every contribution to the collection of `Service`, when each one's instance is
    /// cached where it may serve as it is; `make` makes one from the instances, with the family lock held.
    @usableFromInline
    func cachedCollection<Service>(
        of _: Service.Type, requiresSendable: Bool, async: Bool,
        make: (UnsafeBufferPointer<Unmanaged<Instance>>) -> any AnyObject & Sendable
    ) -> (any AnyObject & Sendable)? {
        core.cachedCollection(
            RegistrationKey(collectionOf: Service.self, name: nil, requiresSendable: requiresSendable), async: async,
            make: make)
    }

    /// The snapshot of the collection of `Service` that this thread kept, with its read begun: the caller copies the
    /// values out of it and calls `endRead()`. Takes no lock; `nil` when `cachedCollection` must answer.
    @usableFromInline
    func keptCollection<Service>(of _: Service.Type, requiresSendable: Bool, async: Bool) -> Unmanaged<Instance>? {
        core.keptCollection(
            RegistrationKey(collectionOf: Service.self, name: nil, requiresSendable: requiresSendable), async: async)
    }

    /// Ends the read that `keptCollection(of:requiresSendable:async:)` began.
    @usableFromInline
    func endRead() { ThreadContext.current.endRead() }

    /// Resolves the collection of `Service` when its cached instances do not answer.
    @usableFromInline
    func resolveAllUncached<Service>(_: Service.Type, requiresSendable: Bool) throws -> [Service] {
        try core.resolveAll(RegistrationKey(collectionOf: Service.self, name: nil, requiresSendable: requiresSendable))
    }

    /// Resolves the collection of `Service`, awaiting async factories, when its cached instances do not answer.
    @usableFromInline
    nonisolated(nonsending) func resolveAllAsyncUncached<Service>(_: Service.Type, requiresSendable: Bool) async throws
        -> [Service]
    {
        try await core.resolveAllAsync(
            RegistrationKey(collectionOf: Service.self, name: nil, requiresSendable: requiresSendable))
    }
}
