extension HiveCore {
    // MARK: - The resolution path

    /// Resolves `key` as a `Service`. Every synchronous resolve, on a hive or on a resolver, comes here.
    ///
    /// It takes the family lock once for the lookup. A cached instance that the resolve may use as it is has its value
    /// copied before unlocking; anything else is retained, and acted on after unlocking by `resolveInDetail`.
    ///
    /// - Parameters:
    ///   - arguments: The runtime arguments, laid out by `ArgumentPack.store`, or `nil` for none.
    ///   - argumentTypes: The runtime arguments' types, for error messages.
    ///   - argumentsMatch: Whether an entry's argument types are exactly the runtime arguments' types. A signature
    ///     is a fingerprint, so this check, not the lookup, is what guarantees the factory reads the right types.
    func resolve<Service>(
        _ key: RegistrationKey, arguments: UnsafeRawPointer? = nil, argumentTypes: () -> [Any.Type] = { [] },
        argumentsMatch: ([Any.Type]) -> Bool = { $0.isEmpty }
    ) throws(ServiceHiveError) -> Service {
        var mayCache = true
        if ThreadContext.mayRecordOrTrace {
            let thread = ThreadContext.current
            if !thread.isRecording, let context = AsyncContext.recordingCurrent {
                // In the task of an async factory that builds a shared instance: this resolve counts for that instance,
                // through whichever hive or resolver it is made, as it would on the thread of a synchronous factory.
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in
                    try resolve(key, arguments: arguments, argumentTypes: argumentTypes, argumentsMatch: argumentsMatch)
                }
            }
            mayCache = !thread.isRecordingOrTracing  // What it finds is recorded, or joins the trace.
        }
        var layers = Layers.unread
        let state = family.lock()
        let hit = lookUp(
            key, in: state.pointee, layers: &layers, argumentsMatch: argumentsMatch, mayCache: mayCache,
            async: false)
        if case .cached(let instance) = hit {
            // Copied before unlocking, without reading this thread's context. Unlocked in line rather than with
            // `defer`, which the compiler may outline into a call of its own (`count-instructions 02`: 9 instructions).
            let value: Service = cachedValue(instance)
            family.unlock()
            return value
        }
        guard case .found(let match) = hit else {
            let lookup = hit.retained(key, in: self, state.pointee, layers: layers)
            family.unlock()
            return try resolveUnanswered(key, argumentTypes, lookup)
        }
        let isTraced = state.pointee.diagnostics.trace != nil
        // A transient, the commonest registration, is built here when nothing else needs doing, from its entry alone;
        // every other case, and this one when nested, takes the lifetime switch through `resolveFound`. Through it,
        // `Benchmarks/count-instructions 01` cost 871 instructions, not 811, and kept here, the rest of it cost a
        // cached singleton's resolve more registers to save (`02`: 324, not 312), when measured.
        guard match.lifetime == .transient, !isTraced else {
            let found = match.retained()
            family.unlock()
            return try resolveFound(found, key, arguments, argumentTypes, argumentsMatch, &layers, isTraced)
        }
        let entry = match.entry.takeUnretainedValue()
        family.unlock()
        let context = ThreadContext.current
        guard !context.isRecordingOrTracing else {
            let found = Found(entry: entry, depth: match.depth, layer: match.layer, seen: .nothing)
            return try resolveFound(found, key, arguments, argumentTypes, argumentsMatch, &layers, isTraced)
        }
        return try topLevel(context) { () throws(ServiceHiveError) in
            try buildTransient(entry, arguments: arguments, context: context)
        }
    }

    /// Acts on what the first lookup of a synchronous resolve found, as one node of this thread's trace when it traces.
    /// Out of line, so that the cached path of `resolve` carries none of it (the comment there gives the counts).
    @inline(never)
    private func resolveFound<Service>(
        _ found: Found, _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ layers: inout Layers, _ isTraced: Bool
    ) throws(ServiceHiveError) -> Service {
        let context = ThreadContext.current
        if isTraced || context.isTracing {
            return try reporting(key, context) { () throws(ServiceHiveError) in
                try resolve(found, key, arguments, argumentTypes, argumentsMatch, &layers, context)
            }
        }
        return try topLevel(context) { () throws(ServiceHiveError) in
            try resolve(found, key, arguments, argumentTypes, argumentsMatch, &layers, context)
        }
    }

    /// Runs `resolve`, and when it is a top-level resolve, ends it on this thread and hands a failure to the hook.
    /// Inlined, with `buildTransient`, into a transient's resolve: called, `Benchmarks/count-instructions 01` cost 841
    /// instructions, not 792.
    @inline(__always)
    private func topLevel<Service>(
        _ context: ThreadContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        guard context.isIdle else { return try resolve() }
        defer { context.endTopLevelResolve() }
        do {
            return try resolve()
        } catch {
            family.withLock { $0.diagnostics.failure }?(error)
            throw error
        }
    }

    /// The value of a cached instance that the lookup found, copied with the family lock held.
    ///
    /// The registry keeps the instance alive while the lock is held, so it is read unretained. Together with
    /// `Locked.lock()`, which lets the value be copied before unlocking, this took a sixth off a cached singleton's
    /// resolve (`Benchmarks/count-instructions 02`: 407 → 338 when they were introduced). Inlined, because the async
    /// path otherwise calls it (`count-instructions 18`: 447 instructions, not 434).
    @inline(__always)
    func cachedValue<Service>(_ instance: Unmanaged<Instance>) -> Service {
        // Safe: only `Factory.box` makes the instances cached for an entry, each a `Box` of its service type.
        instance._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<Service>.self).value }
    }

    /// Looks `key` up again, after a construction this resolve waited for has ended, or a weak instance went.
    private func resolveAgain<Service>(
        _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ layers: inout Layers, _ context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let lookup = lookUp(key, layers: &layers, argumentsMatch: argumentsMatch)
        guard case .found(let found) = lookup else {
            if context.isRecording { context.record(miss(key)) }
            return try unanswered(lookup, key, argumentTypes(), chain: context.chainKeys())
        }
        return try resolve(found, key, arguments, argumentTypes, argumentsMatch, &layers, context)
    }

    /// Acts on the registration or override that a lookup found: the one switch on a registration's lifetime.
    private func resolve<Service>(
        _ found: Found, _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ layers: inout Layers, _ context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let entry = found.entry
        if context.isRecording {
            context.record(Dependency(family: familyID, key: key, searched: lineage[...found.depth], entry: entry))
        }
        if context.isTracing { context.noteTrace(scope: entry.scope, cached: entry.instance != nil) }
        switch entry.lifetime {
        case .transient:
            return try buildTransient(entry, arguments: arguments, context: context)
        case .forward:
            guard case .target(let target) = found.seen else {
                return try buildTransient(entry, arguments: nil, context: context)
            }
            let value = entry.factory(of: Service.self).forwarded(target)
            cacheForwarded(value, of: entry, from: target)
            return value
        case .graph:
            return try graphInstance(entry, searched: lineage[...found.depth], layers: layers, context: context)
        case .shared:
            let instance = try sharedInstance(found, layers: &layers, context: context) {
                (construction) throws(ServiceHiveError) -> Instance in
                try buildInstance(found, Service.self, construction: construction, context: context)
            }
            // Safe: only `Factory.box` makes the instances cached for an entry, each a `Box` of its service type.
            if let instance { return unsafeDowncast(instance, to: Box<Service>.self).value }
        case .weak:
            // The object was built as a `Service`, so the cast cannot fail. (`weakInstance` is not generic in its
            // result: an `Optional<Service>` would cost a metadata lookup on every detailed resolve.)
            if let object = try weakInstance(found, Service.self, layers: &layers, context: context) {
                return object as! Service
            }
        case .async:
            throw .requiresAsync(entry.serviceKey, chain: context.chainKeys())
        }
        return try resolveAgain(key, arguments, argumentTypes, argumentsMatch, &layers, context)
    }

    // MARK: - Building

    /// Builds a transient instance from this hive's view, and runs its post-construction hook. Inlined, as `topLevel`.
    @inline(__always)
    func buildTransient<Service>(
        _ entry: Entry, arguments: UnsafeRawPointer?, context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let value: Service = try build(entry, view: self, arguments: arguments, context: context)
        if entry.hasCompletedHook { try complete(entry, value, view: self, context: context) }
        return value
    }

    /// Runs `entry`'s post-construction hook on `value`, with `entry` on the chain.
    func complete<Service>(
        _ entry: Entry, _ value: Service, view: HiveCore, context: ThreadContext
    ) throws(ServiceHiveError) {
        guard let completed = entry.factory(of: Service.self).completed else { return }
        context.push(entry)
        defer { context.pop() }
        do {
            try completed(ServiceHive.Resolver(core: view), value)
        } catch let error as ServiceHiveError {
            throw error
        } catch {
            let chain = context.chainKeys(dropping: 1)
            throw .factoryFailed(entry.serviceKey, chain: chain, underlying: CompletedHookFailure(underlying: error))
        }
    }

    /// Runs `entry`'s factory with this thread's chain extended by `entry`.
    ///
    /// - Parameter view: The hive the factory's resolver resolves from: the asking hive for a transient, the declaring
    ///   hive for a shared instance, so that a parent's singleton never captures a child's services.
    func build<Service>(
        _ entry: Entry, view: HiveCore, arguments: UnsafeRawPointer?, context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        if let instance = entry.instance {
            // Safe: `Entry.init` stores a `Box` of its own service type.
            return unsafeDowncast(instance, to: Box<Service>.self).value
        }
        if !context.isIdle, let refusal = context.refusal(toBuild: entry) { throw refusal }
        context.push(entry)
        defer { context.pop() }
        do {
            return try entry.make(Service.self, ServiceHive.Resolver(core: view), arguments)
        } catch let error as ServiceHiveError {
            throw error  // A nested resolve's error passes through, with its chain.
        } catch {
            throw .factoryFailed(entry.serviceKey, chain: context.chainKeys(dropping: 1), underlying: error)
        }
    }
}
