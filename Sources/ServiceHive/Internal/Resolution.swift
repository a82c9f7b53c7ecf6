extension HiveCore {
    // MARK: - The resolution path

    /// Resolves `key` as a `Service`. Every resolve, on a hive or on a resolver, comes here.
    ///
    /// The common case takes the lock once: the registration is a transient, whose factory then runs, or a singleton
    /// already cached that no override of the current task affects, which is returned. Everything else, and every
    /// resolve while a shared instance is being built on this thread, takes `resolveInDetail`.
    ///
    /// - Parameters:
    ///   - arguments: The runtime arguments, laid out by `ArgumentPack.store`, or `nil` for none.
    ///   - argumentTypes: The runtime arguments' types, for error messages.
    ///   - argumentsMatch: Whether an entry's argument types are exactly the runtime arguments' types. A signature
    ///     is a fingerprint, so this check, not the lookup, is what guarantees the factory reads the right types.
    func resolve<Service>(
        _ key: RegistrationKey,
        arguments: UnsafeRawPointer? = nil,
        argumentTypes: () -> [Any.Type] = { [] },
        argumentsMatch: ([Any.Type]) -> Bool = { $0.isEmpty }
    ) throws(ServiceHiveError) -> Service {
        var isDetailed = false
        if ThreadContext.mayRecordOrTrace {
            let thread = ThreadContext.current
            if !thread.isRecording, let context = AsyncContext.recordingCurrent {
                // In the task of an async factory that builds a shared instance: this resolve counts for that instance,
                // through whichever hive or resolver it is made, as it would on the thread of a synchronous factory.
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in
                    try resolve(key, arguments: arguments, argumentTypes: argumentTypes, argumentsMatch: argumentsMatch)
                }
            }
            isDetailed = thread.isRecordingOrTracing
        }
        var quick = QuickLookup.detailed(.unknown)
        if !isDetailed {
            let state = family.lock()
            defer { family.unlock() }
            quick = quickLookUp(key, in: state.pointee, argumentsMatch: argumentsMatch, async: false)
            // A cached instance is returned without reading this thread's context, its value copied before unlocking.
            if case .cached(let instance) = quick { return cachedValue(instance) }
        }
        switch quick {
        case .cached, .forwardedCached:
            preconditionFailure("a cached instance is returned with the lock held")
        case .forwarded(let entry, let target):
            let value = entry.factory(of: Service.self).forwarded(target)
            cacheForwarded(value, of: entry, from: target)
            return value
        case .transient(let entry):
            let context = ThreadContext.current
            return try topLevel(context) { () throws(ServiceHiveError) in
                try buildTransient(entry, arguments: arguments, context: context)
            }
        case .graph(let entry, let depth):
            let context = ThreadContext.current
            return try topLevel(context) { () throws(ServiceHiveError) in
                try graphInstance(entry, searched: lineage[...depth], layers: .unknown, context: context)
            }
        case .detailed(let layers):
            return try resolveReporting(key, arguments, argumentTypes, argumentsMatch, layers: layers)
        }
    }

    /// `resolveInDetail`, with what a resolve reports: a top-level resolve ends on this thread, and hands its failure
    /// to the failure hook and its trace to the trace handler.
    private func resolveReporting<Service>(
        _ key: RegistrationKey,
        _ arguments: UnsafeRawPointer?,
        _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool,
        layers: LayerView
    ) throws(ServiceHiveError) -> Service {
        let context = ThreadContext.current
        let isTopLevel = context.isIdle
        defer { if isTopLevel { context.endTopLevelResolve() } }
        let diagnostics = isTopLevel ? family.withLock { $0.diagnostics } : Diagnostics()
        guard context.isTracing || diagnostics.trace != nil else {
            do {
                return try resolveInDetail(
                    key, arguments, argumentTypes, argumentsMatch, layers: layers, context: context)
            } catch {
                diagnostics.failure?(error)
                throw error
            }
        }
        return try traced(key, Service.self, diagnostics, context: context) { () throws(ServiceHiveError) in
            try resolveInDetail(key, arguments, argumentTypes, argumentsMatch, layers: layers, context: context)
        }
    }

    /// Runs `resolve`, and when it is a top-level resolve, ends it on this thread and hands a failure to the hook.
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

    /// The value of a cached instance that `quickLookUp` found, copied with the family lock held.
    ///
    /// The registry keeps the instance alive while the lock is held, so it is read unretained. Together with
    /// `Locked.lock()`, which lets the value be copied before unlocking, this took a sixth off a cached singleton's
    /// resolve (`Benchmarks/count-instructions 02`: 407 → 338 when they were introduced).
    @inline(__always)
    func cachedValue<Service>(_ instance: Unmanaged<Instance>) -> Service {
        // Safe: only `Factory.box` makes the instances cached for an entry, each a `Box` of its service type.
        instance._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<Service>.self).value }
    }

    /// The common cases of a lookup, with the family lock held. Reading the task-local layer stack here takes no lock
    /// and runs no user code.
    ///
    /// - Parameter async: Whether the caller is `resolveAsync`, which may take the cached instance of an async factory.
    @inline(__always)
    func quickLookUp(
        _ key: RegistrationKey,
        in state: borrowing FamilyState,
        argumentsMatch: ([Any.Type]) -> Bool,
        async: Bool
    ) -> QuickLookup {
        var layers = QuickLayers(isRead: state.liveLayers != 0)
        guard state.diagnostics.trace == nil, state.isLive(lineage[lineage.startIndex]) else {
            return .detailed(layers.view)
        }
        // Through a buffer pointer, the registries are read in place; through the array, each would be copied.
        return state.hives.withUnsafeBufferPointer { hives in
            var depth = lineage.startIndex
            while depth < lineage.endIndex {
                let id = lineage[depth]
                defer { depth += 1 }
                switch layers.stack?.answer(for: key, on: id, of: familyID) {
                case .override(let entry)?:
                    let quick =
                        entry.lifetime == .transient && !(key.requiresSendable && entry.unsureSendable)
                        && (key.arguments == nil || argumentsMatch(entry.argumentTypes))
                    return quick ? .transient(entry) : .detailed(layers.view)
                case .strict?:
                    return .detailed(layers.view)
                case .none?, nil:
                    break
                }
                if let found = hives[id.index].registry.quickLookUp(key, argumentsMatch: argumentsMatch, async: async) {
                    return quickAnswer(found, depth: depth, layers: &layers)
                }
            }
            return .detailed(layers.view)
        }
    }

    /// What the quick path makes of what a hive's registry found at `depth` of the lineage: the answer itself, unless
    /// an override of the current task may change it.
    ///
    /// It consumes `found`, and each case rebuilds its answer from what it bound: returning a copy of `found` retained
    /// and released what it holds once more on every resolve (`Benchmarks/count-instructions 02`: 443 → 403, when the
    /// cached instance was held retained).
    @inline(__always)
    private func quickAnswer(_ found: consuming QuickLookup, depth: Int, layers: inout QuickLayers) -> QuickLookup {
        switch consume found {
        case .cached(let instance):
            // Read in place, as `cachedValue` reads it: through `takeUnretainedValue()`, which retains,
            // `Benchmarks/count-instructions 02` costs 371 instructions, not 312.
            if instance._withUnsafeGuaranteedRef({ !$0.dependencies.isEmpty }) {
                let dependencies = instance._withUnsafeGuaranteedRef { $0.dependencies }
                layers.read(ifCrossing: dependencies)
                if layers.stack?.owner(of: dependencies) != nil { return .detailed(layers.view) }
            }
            return layers.stack?.inSandbox == true ? .detailed(layers.view) : .cached(instance)
        case .forwarded(let entry, let instance):
            return forwardable(instance, depth: depth, layers: &layers)
                ? .forwarded(entry, instance) : .detailed(layers.view)
        case .forwardedCached(let instance):
            // In place too: through `takeUnretainedValue()`, `count-instructions 15` costs 349 instructions, not 304.
            let isForwardable = instance._withUnsafeGuaranteedRef { forwardable($0, depth: depth, layers: &layers) }
            return isForwardable ? .cached(instance) : .detailed(layers.view)
        case .detailed: return .detailed(layers.view)
        case .graph(let entry, _): return layers.stack == nil ? .graph(entry, depth: depth) : .detailed(layers.view)
        case .transient(let entry): return .transient(entry)
        }
    }

    /// Whether the quick path may answer with a forwarded registration of the hive at `depth` of the lineage, whose
    /// target's instance or own converted instance is `instance`.
    ///
    /// A forward resolves its target as the asking hive would: one that is not the forwarding hive may register the
    /// target itself, so the detailed path decides. So it does with any override layer, which may override the target.
    @inline(__always)
    private func forwardable(_ instance: Instance, depth: Int, layers: inout QuickLayers) -> Bool {
        guard depth == lineage.startIndex else { return false }
        layers.read(ifCrossing: instance.dependencies)
        return layers.stack == nil
    }

    /// Resolves `key` in every case: overrides, `.graph`, `.weak`, building shared instances, dependency recording
    /// and failures. Find the registration, then one switch on its scope.
    private func resolveInDetail<Service>(
        _ key: RegistrationKey,
        _ arguments: UnsafeRawPointer?,
        _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool,
        layers: LayerView,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        var layers = layers
        while true {
            let lookup = lookUp(key, layers: &layers, argumentsMatch: argumentsMatch)
            guard case .found(let found) = lookup else {
                if context.isRecording { context.record(miss(key)) }
                return try unanswered(lookup, key, argumentTypes(), chain: context.chainKeys())
            }
            if context.isRecording {
                context.record(Dependency(family: familyID, key: key, searched: found.searched, entry: found.entry))
            }
            context.noteTrace(scope: found.entry.scope, cached: found.entry.instance != nil)
            switch found.entry.lifetime {
            case .transient, .forward:
                return try buildTransient(found.entry, arguments: arguments, context: context)
            case .graph:
                return try graphInstance(found.entry, searched: found.searched, layers: layers, context: context)
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
                throw .requiresAsync(found.entry.serviceKey, chain: context.chainKeys())
            }
            // The construction this resolve waited for has ended, or a weak instance went: look again.
        }
    }
}
