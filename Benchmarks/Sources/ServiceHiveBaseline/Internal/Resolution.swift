/// A registration found by a lookup, and the hive whose registry or override declared it.
///
/// Both references are borrowed, which keeps retain-release pairs off the hot path. They are valid only while the
/// family lock is held: removing an entry needs that lock, and the owner is the asking hive or one of the ancestors
/// it keeps alive. Code that unlocks first takes strong references with `takeUnretainedValue()`.
struct Found {
    let entry: Unmanaged<Entry>
    let owner: Unmanaged<ServiceHive>
}

/// Where a `.singleton` or `.weak` registration's instance is cached.
enum CacheLocation {
    /// In the entry itself: no override scope sees the owning hive.
    case entry
    /// In an override scope, so that nothing built while overrides are visible outlives the scope.
    case scope(OverrideScope)

    /// The slot of `entry` here. Called with the family lock held.
    func slot(of entry: Entry) -> Slot {
        switch self {
        case .entry: return entry.slot
        case .scope(let scope): return scope.instances[ObjectIdentifier(entry)]?.slot ?? .empty
        }
    }

    /// Replaces the slot of `entry` here and returns the old one, which the caller releases after unlocking.
    /// Called with the family lock held.
    func replaceSlot(of entry: Entry, with slot: Slot) -> Slot {
        switch self {
        case .entry:
            return entry.replaceSlot(with: slot)
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
    /// The common case, no override scope alive on this hive's family, takes the lock once and looks up one
    /// `ObjectIdentifier`. A cached singleton is copied out before unlocking; a transient's factory runs after. The
    /// path builds no strings and allocates nothing of its own.
    ///
    /// - Parameters:
    ///   - arguments: The signature of the runtime arguments, or `nil` for none.
    ///   - argumentValues: The runtime arguments, laid out by `ArgumentPack.store`.
    ///   - argumentTypes: The runtime arguments' types, for error messages.
    ///   - argumentsMatch: Whether an entry's argument types are exactly the runtime arguments' types. A signature
    ///     is a fingerprint, so this check, not the lookup, is what guarantees the factory reads the right types.
    @usableFromInline
    func resolveService<Service>(
        _ service: Service.Type,
        name: String?,
        arguments: ArgumentSignature? = nil,
        argumentValues: UnsafeRawPointer? = nil,
        argumentTypes: () -> [Any.Type] = { [] },
        argumentsMatch: ([Any.Type]) -> Bool = { $0.isEmpty }
    ) throws(ServiceHiveError) -> Service {
        let key = RegistrationKey(service: ObjectIdentifier(Service.self), name: name, arguments: arguments)
        state.lock.lock()
        if state.counters.pointee.liveScopes == 0 {
            if let found = find(key, scopes: nil),
                key.arguments == nil || argumentsMatch(found.entry._withUnsafeGuaranteedRef { $0.argumentTypes })
            {
                // Safe: `find` matched `key.service == ObjectIdentifier(Service.self)`, and a `TypedEntry<S>` is
                // always stored under `ObjectIdentifier(S.self)` (see `TypedEntry`).
                let entry = Unmanaged<TypedEntry<Service>>.fromOpaque(found.entry.toOpaque())
                switch entry._withUnsafeGuaranteedRef({ $0.scope }) {
                case .transient:
                    let building = entry.takeUnretainedValue()  // A strong reference, for use after unlocking.
                    state.lock.unlock()
                    return try buildTopLevelOrNested(building, view: self, arguments: argumentValues)
                case .singleton:
                    if let box = entry._withUnsafeGuaranteedRef({ $0.instanceBox }) {
                        // Safe: only `publish` fills a slot, with a `Box<Service>` for this `TypedEntry<Service>`,
                        // and the slot keeps the box alive while the lock is held.
                        let value = box._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<Service>.self).value }
                        state.lock.unlock()
                        return value
                    }
                case .weak, .graph:
                    break
                }
            }
        } else if key.isPlain, let memo = memo(for: key) {
            // Inside an override scope: what this key resolved to before, in this scope. The scope owns the memo
            // and the lock keeps the scope's memos alive, so it is read unretained.
            // No `Service?` here: an optional of a generic type costs a metadata lookup on every call.
            if memo._withUnsafeGuaranteedRef({ $0.box != nil }) {
                let value = memo._withUnsafeGuaranteedRef { memo in
                    // Safe: the memo's box is the `Box<Service>` that `publish` stored for its `TypedEntry<Service>`.
                    unsafeDowncast(memo.box.unsafelyUnwrapped, to: Box<Service>.self).value
                }
                state.lock.unlock()
                return value
            }
            let entry = memo._withUnsafeGuaranteedRef { $0.entry }
            if entry.scope == .transient {
                // Safe: the memo's entry was found under `key`, so it is a `TypedEntry<Service>`.
                let building = unsafeDowncast(entry, to: TypedEntry<Service>.self)
                state.lock.unlock()
                return try buildTopLevelOrNested(building, view: self, arguments: argumentValues)
            }
        }
        return try resolveLocked(
            key, argumentValues: argumentValues, argumentTypes: argumentTypes, argumentsMatch: argumentsMatch)
    }

    /// The current scope's memo of `key` for this hive, if it is still valid. Called with the family lock held.
    @inline(__always)
    private func memo(for key: RegistrationKey) -> Unmanaged<Memo>? {
        guard let scope = OverrideScope.current?.innermost(in: family),
            let memo = scope.memo(for: MemoKey(view: ObjectIdentifier(self), service: key.service)),
            memo._withUnsafeGuaranteedRef({ $0.generation }) == state.counters.pointee.generation
        else { return nil }
        return memo
    }

    /// Remembers in the current scope what `key` resolved to for this hive. Called with the family lock held.
    private func remember(_ entry: Entry, box: AnyObject?, for key: RegistrationKey, scopes: OverrideScope) {
        guard key.isPlain, let scope = scopes.innermost(in: family) else { return }
        let memo = Memo(generation: state.counters.pointee.generation, entry: entry, view: self, box: box)
        scope.remember(memo, for: MemoKey(view: ObjectIdentifier(self), service: key.service))
    }

    /// Builds `entry`: as a top-level resolve when none runs on this thread, else nested in the running one.
    /// `withResolutionContext`, written out: one frame less per level of a deep chain in debug builds.
    ///
    /// - Parameter view: The hive the factory resolves from: the hive that was asked, or for a shared instance the
    ///   hive that owns it.
    @inline(__always)
    private func buildTopLevelOrNested<Service>(
        _ entry: TypedEntry<Service>,
        view: ServiceHive,
        arguments: UnsafeRawPointer?,
        context: ResolutionContext = .current
    ) throws(ServiceHiveError) -> Service {
        guard context.isIdle else { return try build(entry, view: view, arguments: arguments, context: context) }
        defer { if context.hasGraphInstances { context.endGraph() } }
        return try build(entry, view: view, arguments: arguments, context: context)
    }

    /// The general resolution path: override scopes, `.graph`, `.weak`, and building shared instances. Called with
    /// the family lock held.
    private func resolveLocked<Service>(
        _ key: RegistrationKey,
        argumentValues: UnsafeRawPointer?,
        argumentTypes: () -> [Any.Type],
        argumentsMatch: ([Any.Type]) -> Bool
    ) throws(ServiceHiveError) -> Service {
        var isLocked = true
        while true {
            if !isLocked { state.lock.lock() }
            isLocked = true
            // Reading the task-local costs about 25 ns, so it is read only while a scope on this family is alive.
            let scopes = state.counters.pointee.liveScopes == 0 ? nil : OverrideScope.current
            guard let found = find(key, scopes: scopes),
                key.arguments == nil || argumentsMatch(found.entry._withUnsafeGuaranteedRef { $0.argumentTypes })
            else {
                throw unlockAndDescribeMissing(key, Service.self, argumentTypes(), scopes: scopes)
            }
            // Safe, as in `resolveService`. Strong references from here on: the paths below unlock.
            let entry = unsafeDowncast(found.entry.takeUnretainedValue(), to: TypedEntry<Service>.self)
            let owner = found.owner.takeUnretainedValue()

            switch entry.scope {
            case .transient:
                if let scopes { remember(entry, box: nil, for: key, scopes: scopes) }
                state.lock.unlock()
                return try buildTopLevelOrNested(entry, view: self, arguments: argumentValues)

            case .graph:
                state.lock.unlock()
                return try withResolutionContext { context throws(ServiceHiveError) in
                    try resolveGraphInstance(entry, context: context)
                }

            case .singleton, .weak:
                let location: CacheLocation =
                    if let scopes, let scope = scopes.innermost(seenBy: owner) { .scope(scope) } else { .entry }
                switch location.slot(of: entry) {
                case .instance(let box):
                    // Safe: only `publish` fills a slot, with a `Box<Service>` for this `TypedEntry<Service>`.
                    let value = unsafeDowncast(box, to: Box<Service>.self).value
                    if let scopes, case .scope(let cache) = location, cache === scopes.innermost(in: family) {
                        remember(entry, box: box, for: key, scopes: scopes)
                    }
                    state.lock.unlock()
                    return value

                case .weak(let weakBox):
                    if let object = weakBox.object {
                        state.lock.unlock()
                        // The object was built as a `Service`, so the cast cannot fail.
                        return object as! Service
                    }
                    return try claimAndBuild(entry, owner: owner, location: location)

                case .building(let construction):
                    state.lock.unlock()
                    isLocked = false
                    try ConstructionCoordinator.shared.wait(for: construction, context: .current)
                    continue  // Look again: the instance is cached now, or the construction failed or was reset.

                case .empty:
                    return try claimAndBuild(entry, owner: owner, location: location)
                }
            }
        }
    }

    /// Finds the registration for `key` as this hive sees it: for this hive, then each ancestor, the innermost
    /// override of that hive first, then the hive's own registry. Called with the family lock held.
    @inline(__always)
    func find(_ key: RegistrationKey, scopes: OverrideScope?) -> Found? {
        var hive = Unmanaged.passUnretained(self)
        while true {
            if let scopes, let entry = scopes.override(for: key, on: hive.takeUnretainedValue()) {
                return Found(entry: entry, owner: hive)
            }
            if let entry = hive._withUnsafeGuaranteedRef({ $0.state.registry.pointee.entry(for: key) }) {
                return Found(entry: entry, owner: hive)
            }
            guard let parent = hive._withUnsafeGuaranteedRef({ $0.parent }) else { return nil }
            hive = Unmanaged.passUnretained(parent)
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
        _ body: (ResolutionContext) throws(ServiceHiveError) -> Result
    ) throws(ServiceHiveError) -> Result {
        let context = ResolutionContext.current
        guard context.isIdle else { return try body(context) }
        defer { if context.hasGraphInstances { context.endGraph() } }
        return try body(context)
    }

    /// Runs `entry`'s factory with this thread's chain extended by `entry`.
    ///
    /// A registration without arguments that is already in the chain closes a cycle. A registration with
    /// arguments may appear again, as a recursive function may: each call can pass different arguments, so only
    /// the depth limit and the stack reserve bound it.
    ///
    /// - Parameter view: The hive the factory's ``Resolver`` resolves from: the hive that was asked, or for a
    ///   shared instance the hive that owns the registration.
    func build<Service>(
        _ entry: TypedEntry<Service>,
        view: ServiceHive,
        arguments: UnsafeRawPointer?,
        context: ResolutionContext
    ) throws(ServiceHiveError) -> Service {
        if !context.isIdle, let refusal = refusal(toBuild: entry, context: context) { throw refusal }
        context.push(entry)
        defer { context.pop() }
        do {
            return try entry.make(view: view, arguments: arguments)
        } catch {
            throw factoryError(error, building: entry, context: context)
        }
    }

    /// Why a nested build of `entry` must not start: a cycle, the depth limit or the stack reserve. The checks
    /// live here, out of `build`, to keep `build`'s frame small: it is on the stack once per level of a chain.
    @inline(never)
    private func refusal(toBuild entry: Entry, context: ResolutionContext) -> ServiceHiveError? {
        if entry.key.arguments == nil, context.isBuilding(entry) { return context.cycleError(closingAt: entry) }
        if context.depth >= Self.maximumResolutionDepth {
            return .resolutionTooDeep(entry.serviceKey, chain: context.chainKeys(), limit: Self.maximumResolutionDepth)
        }
        if context.isStackLow { return .stackExhausted(entry.serviceKey, chain: context.chainKeys()) }
        return nil
    }

    /// What a factory's error becomes: a ``ServiceHiveError`` from a nested resolve passes through unwrapped;
    /// anything else is wrapped in ``ServiceHiveError/factoryFailed(_:chain:underlying:)``.
    @inline(never)
    private func factoryError(_ error: any Error, building entry: Entry, context: ResolutionContext)
        -> ServiceHiveError
    {
        if let error = error as? ServiceHiveError { return error }
        return .factoryFailed(entry.serviceKey, chain: context.chainKeys(dropping: 1), underlying: error)
    }

    /// Resolves a `.graph` registration: the instance already built in this top-level resolve, or a new one.
    private func resolveGraphInstance<Service>(
        _ entry: TypedEntry<Service>,
        context: ResolutionContext
    ) throws(ServiceHiveError) -> Service {
        if let cached = context.graphInstance(of: entry, view: self) {
            // Safe: only this function caches graph instances, a `Box<Service>` for this `TypedEntry<Service>`.
            return unsafeDowncast(cached, to: Box<Service>.self).value
        }
        let value = try build(entry, view: self, arguments: nil, context: context)
        context.setGraphInstance(Box(value), of: entry, view: self)
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
        let construction = try claim(entry, location: location, context: context)
        let value: Service
        do throws(ServiceHiveError) {
            value = try buildTopLevelOrNested(entry, view: owner, arguments: nil, context: context)
        } catch {
            abandon(construction, of: entry, location: location)
            throw error
        }
        return try publish(value, of: entry, construction: construction, location: location)
    }

    /// Marks `entry`'s slot as being built by this thread and unlocks. Called with the family lock held;
    /// returns or throws with it released.
    @inline(never)
    private func claim(
        _ entry: Entry,
        location: CacheLocation,
        context: ResolutionContext
    ) throws(ServiceHiveError) -> Construction {
        if context.isBuilding(entry) {
            // The slot was reset while this thread builds the entry, and its factory now asks for itself.
            state.lock.unlock()
            throw context.cycleError(closingAt: entry)
        }
        let construction = Construction(owner: context, entry: entry)
        let previous = location.replaceSlot(of: entry, with: .building(construction))
        state.lock.unlock()
        withExtendedLifetime(previous) {}  // A dead weak box, released outside the lock.
        return construction
    }

    /// Gives up a claimed slot after the factory failed, and wakes the threads waiting for it.
    @inline(never)
    private func abandon(_ construction: Construction, of entry: Entry, location: CacheLocation) {
        let released = state.lock.withLock { () -> Slot in
            guard case .building(let current) = location.slot(of: entry), current === construction else {
                return .empty
            }
            return location.replaceSlot(of: entry, with: .empty)
        }
        withExtendedLifetime(released) {}
        ConstructionCoordinator.shared.finish(construction)
    }

    /// Caches a newly built shared instance, unless `unregister` or `resetInstances` emptied the slot meanwhile,
    /// and wakes the threads waiting for it.
    ///
    /// - Throws: ``ServiceHiveError/weakRequiresClass(_:instanceType:)`` for a `.weak` value type, caching nothing.
    @inline(never)
    private func publish<Service>(
        _ value: Service,
        of entry: TypedEntry<Service>,
        construction: Construction,
        location: CacheLocation
    ) throws(ServiceHiveError) -> Service {
        let filled: Slot
        if entry.scope == .weak {
            guard type(of: value as Any) is AnyObject.Type else {
                abandon(construction, of: entry, location: location)
                throw .weakRequiresClass(entry.serviceKey, instanceType: typeName(type(of: value as Any)))
            }
            filled = .weak(WeakBox(value as AnyObject))
        } else {
            filled = .instance(Box(value))
        }
        let released = state.lock.withLock { () -> Slot in
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
            found += current.state.registry.pointee.entries(service: key.service, name: key.name)
            hive = current.parent
        }
        return found
    }

    /// Unlocks and returns the error for a lookup that found nothing. Called with the family lock held.
    @inline(never)
    private func unlockAndDescribeMissing(
        _ key: RegistrationKey,
        _ serviceType: Any.Type,
        _ argumentTypes: [Any.Type],
        scopes: OverrideScope?
    ) -> ServiceHiveError {
        let candidates = candidateEntries(for: key, scopes: scopes)
        state.lock.unlock()
        return missingError(key, serviceType: serviceType, argumentTypes: argumentTypes, candidates: candidates)
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
