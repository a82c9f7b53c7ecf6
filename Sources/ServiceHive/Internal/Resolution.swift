/// A registration found by a lookup, and the hive whose registry or override declared it.
struct Found {
    let entry: Entry
    let owner: ServiceHive
}

/// Where a `.singleton` or `.weak` registration's instance is cached.
enum CacheLocation {
    /// In the entry itself: no override scope sees the owning hive.
    case entry
    /// In an override scope, so that nothing built while overrides are visible outlives the scope.
    case scope(OverrideScope)

    /// The slot of `entry` here. Called with the family lock held.
    @inline(__always)
    func slot(of entry: Entry) -> Slot {
        switch self {
        case .entry: return entry.slot
        case .scope(let scope): return scope.instances[ObjectIdentifier(entry)]?.slot ?? .empty
        }
    }

    /// Replaces the slot of `entry` here and returns the old one, which the caller releases after unlocking.
    /// Called with the family lock held.
    @inline(__always)
    func replaceSlot(of entry: Entry, with slot: Slot) -> Slot {
        switch self {
        case .entry:
            let old = entry.slot
            entry.slot = slot
            return old
        case .scope(let scope):
            let key = ObjectIdentifier(entry)
            if case .empty = slot {
                return scope.instances.removeValue(forKey: key)?.slot ?? .empty
            }
            return scope.instances.updateValue(ScopedInstance(entry: entry, slot: slot), forKey: key)?.slot ?? .empty
        }
    }
}

extension ServiceHive {
    // MARK: - The resolution path

    /// Resolves a service. Every public resolve, on a hive or on a ``Resolver``, comes here.
    ///
    /// The common case, an unnamed registration outside any override scope, takes the family lock once, looks up
    /// one `ObjectIdentifier` in a dictionary and, for a cached singleton, copies it out before unlocking. It
    /// builds no strings and allocates nothing.
    func resolveService<Service>(
        _ service: Service.Type,
        name: String?,
        arguments: ArgumentSignature?,
        argumentValues: UnsafeRawPointer?,
        argumentTypes: () -> [Any.Type]
    ) throws(ServiceHiveError) -> Service {
        let key = RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: arguments)
        while true {
            family.lock.lock()
            // Reading the task-local costs about 25 ns, so it is read only while a scope on this family is alive.
            let scopes = family.liveScopes == 0 ? nil : OverrideScope.current
            guard let found = find(key, scopes: scopes) else {
                let candidates = candidateEntries(for: key, scopes: scopes)
                family.lock.unlock()
                throw missingError(
                    key, serviceType: Service.self, argumentTypes: argumentTypes(), candidates: candidates)
            }
            // Safe: `find` matched `key.service == ObjectIdentifier(Service.self)`, and a `TypedEntry<S>` is always
            // stored under `ObjectIdentifier(S.self)` (see `TypedEntry`).
            let entry = unsafeDowncast(found.entry, to: TypedEntry<Service>.self)

            switch entry.scope {
            case .transient:
                family.lock.unlock()
                return try withResolutionContext { context throws(ServiceHiveError) in
                    try build(entry, view: self, arguments: argumentValues, context: context)
                }

            case .graph:
                family.lock.unlock()
                return try withResolutionContext { context throws(ServiceHiveError) in
                    try resolveGraphInstance(entry, context: context)
                }

            case .singleton, .weak:
                let location: CacheLocation =
                    if let scopes, let scope = scopes.innermost(seenBy: found.owner) { .scope(scope) } else { .entry }
                let slot = location.slot(of: entry)
                switch slot {
                case .instance(let box):
                    // Safe: only `buildShared` fills a slot, with a `Box<Service>` for this `TypedEntry<Service>`.
                    let value = unsafeDowncast(box, to: Box<Service>.self).value
                    family.lock.unlock()
                    return value

                case .weak(let weakBox):
                    if let object = weakBox.object {
                        family.lock.unlock()
                        // The object was built as a `Service`, so the cast cannot fail.
                        return object as! Service
                    }
                    return try claimAndBuild(entry, owner: found.owner, location: location)

                case .building(let construction):
                    family.lock.unlock()
                    try ConstructionCoordinator.shared.wait(for: construction, context: .current)
                    continue  // Look again: the instance is cached now, or the construction failed or was reset.

                case .empty:
                    return try claimAndBuild(entry, owner: found.owner, location: location)
                }
            }
        }
    }

    /// Finds the registration for `key` as this hive sees it: for this hive, then each ancestor, the innermost
    /// override of that hive first, then the hive's own registry. Called with the family lock held.
    @inline(__always)
    func find(_ key: RegistrationKey, scopes: OverrideScope?) -> Found? {
        var hive = self
        while true {
            if let scopes, let entry = scopes.override(for: key, on: hive) {
                return Found(entry: entry, owner: hive)
            }
            if let entry = hive.storage.registry.entry(for: key) {
                return Found(entry: entry, owner: hive)
            }
            guard let parent = hive.parent else { return nil }
            hive = parent
        }
    }

    /// Whether `ancestor` is this hive or one of its parents.
    func isSelfOrDescendant(of ancestor: ServiceHive) -> Bool {
        var hive: ServiceHive? = self
        while let current = hive {
            if current === ancestor { return true }
            hive = current.parent
        }
        return false
    }

    // MARK: - Building

    /// Runs `body` with this thread's resolution context. When this is the outermost resolve on the thread, the
    /// `.graph` instances of the resolve are forgotten afterwards.
    @inline(__always)
    func withResolutionContext<Result>(
        _ context: ResolutionContext = .current,
        _ body: (ResolutionContext) throws(ServiceHiveError) -> Result
    ) throws(ServiceHiveError) -> Result {
        guard context.chain.isEmpty else { return try body(context) }
        defer { if !context.graph.isEmpty { context.endGraph() } }
        return try body(context)
    }

    /// Runs `entry`'s factory with this thread's chain extended by `entry`.
    ///
    /// - Parameter view: The hive the factory's ``Resolver`` resolves from: the hive that was asked, or for a
    ///   shared instance the hive that owns the registration.
    func build<Service>(
        _ entry: TypedEntry<Service>,
        view: ServiceHive,
        arguments: UnsafeRawPointer?,
        context: ResolutionContext
    ) throws(ServiceHiveError) -> Service {
        if !context.chain.isEmpty {
            if context.isBuilding(entry) { throw context.cycleError(closingAt: entry) }
            if context.chain.count >= Self.maximumResolutionDepth {
                throw .resolutionTooDeep(
                    entry.serviceKey, chain: context.chainKeys(), limit: Self.maximumResolutionDepth)
            }
        }
        context.chain.append(Unmanaged.passUnretained(entry))
        defer { context.chain.removeLast() }
        do {
            return try entry.make(Resolver(hive: view), arguments)
        } catch let error as ServiceHiveError {
            throw error
        } catch {
            throw .factoryFailed(entry.serviceKey, chain: context.chainKeys(dropping: 1), underlying: error)
        }
    }

    /// Resolves a `.graph` registration: the instance already built in this top-level resolve, or a new one.
    private func resolveGraphInstance<Service>(
        _ entry: TypedEntry<Service>,
        context: ResolutionContext
    ) throws(ServiceHiveError) -> Service {
        let key = GraphKey(entry: ObjectIdentifier(entry), view: ObjectIdentifier(self))
        if let cached = context.graph[key] {
            // Safe: only this function stores under `key`, a `Box<Service>` for this `TypedEntry<Service>`.
            return unsafeDowncast(cached.box, to: Box<Service>.self).value
        }
        let value = try build(entry, view: self, arguments: nil, context: context)
        context.graph[key] = GraphInstance(entry: entry, box: Box(value))
        return value
    }

    /// Claims an empty `.singleton` or `.weak` slot for this thread, unlocks, and builds the instance. Called with
    /// the family lock held; returns or throws with it released.
    ///
    /// The factory runs in the view of the hive that owns the registration, not the hive that was asked, so a
    /// parent's singleton never captures a child's services; and it runs with no lock held.
    private func claimAndBuild<Service>(
        _ entry: TypedEntry<Service>,
        owner: ServiceHive,
        location: CacheLocation
    ) throws(ServiceHiveError) -> Service {
        let context = ResolutionContext.current
        if context.isBuilding(entry) {
            // The slot was reset while this thread builds the entry, and its factory now asks for itself.
            family.lock.unlock()
            throw context.cycleError(closingAt: entry)
        }
        let construction = Construction(owner: context, entry: entry)
        let previous = location.replaceSlot(of: entry, with: .building(construction))
        family.lock.unlock()
        withExtendedLifetime(previous) {}  // A dead weak box, released outside the lock.

        let value: Service
        do throws(ServiceHiveError) {
            value = try withResolutionContext(context) { context throws(ServiceHiveError) in
                try build(entry, view: owner, arguments: nil, context: context)
            }
            if entry.scope == .weak, !(type(of: value as Any) is AnyObject.Type) {
                throw ServiceHiveError.weakRequiresClass(
                    entry.serviceKey, instanceType: typeName(type(of: value as Any)))
            }
        } catch {
            let released = family.lock.withLock { () -> Slot in
                guard case .building(let current) = location.slot(of: entry), current === construction else {
                    return .empty
                }
                return location.replaceSlot(of: entry, with: .empty)
            }
            withExtendedLifetime(released) {}
            ConstructionCoordinator.shared.finish(construction)
            throw error
        }

        let filled: Slot = entry.scope == .weak ? .weak(WeakBox(value as AnyObject)) : .instance(Box(value))
        let released = family.lock.withLock { () -> Slot in
            // Publish only if the slot is still ours: `unregister` and `resetInstances` empty it, and then the
            // instance belongs to this caller alone.
            guard case .building(let current) = location.slot(of: entry), current === construction,
                !entry.isRemoved
            else { return .empty }
            return location.replaceSlot(of: entry, with: filled)
        }
        withExtendedLifetime(released) {}
        ConstructionCoordinator.shared.finish(construction)
        return value
    }

    // MARK: - Failures

    /// Every registration for the service and name that this hive's view can see, whatever its arguments. Called
    /// with the family lock held, on the error path only.
    private func candidateEntries(for key: RegistrationKey, scopes: OverrideScope?) -> [Entry] {
        var found: [Entry] = []
        var hive: ServiceHive? = self
        while let current = hive {
            var scope = scopes
            while let active = scope {
                if active.hive === current {
                    found += active.registry.entries(service: key.service, name: key.name)
                }
                scope = active.outer
            }
            found += current.storage.registry.entries(service: key.service, name: key.name)
            hive = current.parent
        }
        return found
    }

    /// The error for a lookup that found nothing: ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when
    /// the service and name exist with other arguments, else ``ServiceHiveError/notRegistered(_:chain:)``.
    private func missingError(
        _ key: RegistrationKey,
        serviceType: Any.Type,
        argumentTypes: [Any.Type],
        candidates: [Entry]
    ) -> ServiceHiveError {
        let requested = ServiceKey(
            service: typeName(serviceType), name: key.name, argumentTypes: argumentTypes.map(typeName))
        let chain = ResolutionContext.current.chainKeys()
        guard !candidates.isEmpty else { return .notRegistered(requested, chain: chain) }
        var registered: [[String]] = []
        for entry in candidates {
            let types = entry.argumentTypes.map(typeName)
            if !registered.contains(types) { registered.append(types) }
        }
        return .argumentMismatch(requested, registered: registered, chain: chain)
    }
}
