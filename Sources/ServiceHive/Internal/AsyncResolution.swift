extension HiveCore {
    // MARK: - The async resolution path

    /// Resolves `key` as a `Service`, awaiting async factories: every `resolveAsync` comes here. A registration with a
    /// synchronous factory is resolved by the synchronous path; an async one is found, then one switch on its scope.
    ///
    /// Inlined into each public `resolveAsync`, so that returning a cached instance takes one async call, not two:
    /// each costs a task allocation, a sixth of a cached async resolve (benchmark `18 async singleton resolveAsync`,
    /// `Benchmarks/count-instructions 18`).
    @inline(__always)
    nonisolated(nonsending) func resolveAsync<Service>(_ key: RegistrationKey) async throws(ServiceHiveError)
        -> Service
    {
        // A cached instance first, before a top-level resolve makes a context of its own, and before reading the
        // task-local at all while no construction anywhere records what it uses. It is read as `resolve` reads it.
        if AsyncContext.recordingCurrent == nil {
            let state = family.lock()
            defer { family.unlock() }
            let quick = quickLookUp(key, in: state.pointee, argumentsMatch: { $0.isEmpty }, async: true)
            if case .cached(let instance) = quick { return cachedValue(instance) }
        }
        return try await resolveAsyncUncached(key)
    }

    /// `resolveAsync` once the cache has not answered: in the current task's context, or a new top-level one.
    nonisolated(nonsending) private func resolveAsyncUncached<Service>(_ key: RegistrationKey)
        async throws(ServiceHiveError)
        -> Service
    {
        guard let context = AsyncContext.current else {
            do {
                return try await resolveAsync(key, context: .root())
            } catch {
                family.withLock { $0.diagnostics.failure }?(error)
                throw error
            }
        }
        return try await resolveAsync(key, context: context)
    }

    /// `resolveAsync` in `context`, the current task's or a new top-level one, after the cache has not answered: the
    /// inlined `resolveAsync` above has looked there whenever `context` does not record.
    nonisolated(nonsending) private func resolveAsync<Service>(
        _ key: RegistrationKey,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        var layers = LayerView.unknown
        while true {
            let lookup = lookUp(key, layers: &layers, argumentsMatch: { $0.isEmpty })
            guard case .found(let found) = lookup else {
                context.record(miss(key))
                return try unanswered(lookup, key, [], chain: context.chain.map(\.serviceKey))
            }
            guard found.entry.lifetime == .async else {
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in try resolve(key) }
            }
            context.record(Dependency(family: familyID, key: key, searched: found.searched, entry: found.entry))
            switch Lifetime(found.entry.scope) {
            case .transient, .async, .forward:
                return try await buildAsync(
                    found.entry, view: self, context: context.child(building: found.entry, construction: nil))
            case .graph:
                return try await graphInstanceAsync(found, layers: layers, context: context)
            case .shared, .weak:
                // Safe, as above. An async `.weak` registration is refused when it is made.
                if let instance = try await sharedInstanceAsync(found, Service.self, layers: &layers, context: context)
                {
                    return unsafeDowncast(instance, to: Box<Service>.self).value
                }
            }
        }
    }

    /// Runs `resolve`, a synchronous resolve made from async code, recording what it used for the shared construction
    /// that `context` is part of.
    func resolveSynchronously<Service>(
        for context: AsyncContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        guard context.isRecording else { return try resolve() }
        let thread = ThreadContext.current
        thread.beginRecording()
        let value: Service
        do throws(ServiceHiveError) {
            value = try resolve()
        } catch {
            context.record(thread.endRecording())
            throw error
        }
        context.record(thread.endRecording())
        return value
    }

    /// Runs an async factory in `context`, the context made for it.
    private func buildAsync<Service>(
        _ entry: Entry,
        view: HiveCore,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        if let refusal = context.parent?.refusal(toBuild: entry) { throw refusal }
        // Safe: an entry whose lifetime is `.async` was made with a `Factory(async:)`.
        let make = entry.factory(of: Service.self).makeAsync.unsafelyUnwrapped
        do {
            return try await AsyncContext.$current.withValue(context) {
                try await make(ServiceHive.Resolver(core: view))
            }
        } catch let error as ServiceHiveError {
            throw error  // A nested resolve's error passes through, with its chain.
        } catch {
            throw .factoryFailed(entry.serviceKey, chain: context.chain.dropLast().map(\.serviceKey), underlying: error)
        }
    }

    /// A `.graph` instance of an async registration: the one already built in this top-level resolve, or a new one.
    private func graphInstanceAsync<Service>(
        _ found: Found,
        layers: LayerView,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        let layerID = layers.stack.map(ObjectIdentifier.init)
        let shared = context.graph.withLock { graph in
            graph.first { $0.entry === found.entry && $0.layers == layerID && found.searched.contains($0.builtBy) }
        }
        if let shared {
            context.record(shared.box.dependencies)
            // Safe: only this function adds async graph instances, each a `Box` of its entry's service type.
            return unsafeDowncast(shared.box, to: Box<Service>.self).value
        }
        let value: Service = try await buildAsync(
            found.entry, view: self, context: context.child(building: found.entry, construction: nil))
        let box = found.entry.factory(of: Service.self).box(value, .none)
        context.graph.withLock { $0.append(GraphInstance(entry: found.entry, builtBy: id, layers: layerID, box: box)) }
        return value
    }

    // MARK: - Shared instances

    /// The instance of an async `.singleton` or named-scope registration; `nil` after waiting for a construction that
    /// has since ended, when the caller must look again. The rules are those of the synchronous `sharedInstance`, but
    /// for a construction in progress: it is found when claiming, so inside a validation's sandbox this task builds
    /// the sandbox's own instance instead of waiting for the one being built beside the registration.
    private func sharedInstanceAsync<Service>(
        _ found: Found,
        _: Service.Type,
        layers: inout LayerView,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Instance? {
        guard let location = location(of: found, layers: &layers) else {
            let instance = found.slot.instance!
            context.record(instance.dependencies)
            return instance
        }
        return try await obtainAsync(found, Service.self, at: location, layers: &layers, context: context)
    }

    /// The instance at `location`: the one cached there, or one that a construction task of its own builds, so that no
    /// waiter's cancellation can cancel it.
    private func obtainAsync<Service>(
        _ found: Found,
        _: Service.Type,
        at location: Location,
        layers: inout LayerView,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Instance? {
        let construction = Construction(entry: found.entry, owner: nil)
        switch claim(found.entry, at: location, for: construction) {
        case .claimed:
            break
        case .building(let other):
            if let refusal = context.refusal(toBuild: found.entry) { throw refusal }
            try await Waits.wait(for: other, as: context.id, chain: context.chain)
            return nil
        case .instance(let instance):
            context.record(instance.dependencies)
            return instance
        }
        let child = context.child(building: found.entry, construction: construction)
        let view = ancestor(found.searched.count - 1)
        let built = await Task { () async -> Result<Instance, ServiceHiveError> in
            do throws(ServiceHiveError) {
                let value: Service = try await view.buildAsync(found.entry, view: view, context: child)
                return .success(found.entry.factory(of: Service.self).box(value, child.recorded.sealed(home: familyID)))
            } catch {
                return .failure(error)
            }
        }.value
        switch built {
        case .success(let instance):
            let owner = layerOwning(instance, builtAt: location, layers: &layers)
            publish(instance, of: found.entry, at: location, movingTo: owner, by: construction)
            context.record(instance.dependencies)
            return instance
        case .failure(let error):
            release(construction, of: found.entry, at: location)
            throw error
        }
    }
}
