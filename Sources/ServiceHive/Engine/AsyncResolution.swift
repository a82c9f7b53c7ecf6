extension HiveCore {
    // MARK: - The async resolution path

    /// `resolveAsync` once the cache has not answered: in the current task's context, or a new top-level one.
    nonisolated(nonsending) func resolveAsyncUncached<Service>(_ key: RegistrationKey)
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
        var layers = Layers.unread
        while true {
            let lookup = lookUp(key, layers: &layers, argumentsMatch: { $0.isEmpty })
            guard case .found(let found) = lookup else {
                context.record(miss(key))
                return try unanswered(lookup, key, [], chain: context.chain.map(\.serviceKey))
            }
            guard found.entry.isAsync else {
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in try resolve(key) }
            }
            context.record(
                Dependency(family: familyID, key: key, searched: lineage[...found.depth], entry: found.entry))
            // An async factory's lifetime is `.async` whatever its scope, so that only this path builds it; here the
            // scope decides, as the synchronous path's lifetime switch does. An async `.weak` is refused when made.
            switch found.entry.scope.kind {
            case .transient:
                return try await buildAsync(
                    found.entry, view: self, context: context.child(building: found.entry, construction: nil))
            case .graph:
                return try await graphInstanceAsync(found, layers: layers, context: context)
            case .singleton, .named, .weak:
                if let instance = try await sharedInstanceAsync(found, Service.self, layers: &layers, context: context)
                {
                    // Safe: only `Factory.box` makes the instances cached for an entry, each a `Box` of its type.
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
        layers: Layers,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        let layerID = layers.stack.map(ObjectIdentifier.init)
        let searched = lineage[...found.depth]
        let shared = context.graph.withLock { graph in
            graph.first { $0.entry === found.entry && $0.layers == layerID && searched.contains($0.builtBy) }
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
    /// has since ended, when the caller must look again. The rules are those of the synchronous `sharedInstance`, and
    /// claiming, relocating and publishing are the same functions; waiting suspends instead of blocking, and the
    /// instance is built in a task of its own. A construction in progress is found when claiming, so inside a
    /// validation's sandbox this task builds the sandbox's own instance instead of waiting for the one being built
    /// beside the registration.
    private func sharedInstanceAsync<Service>(
        _ found: Found,
        _: Service.Type,
        layers: inout Layers,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Instance? {
        guard let location = location(of: found, layers: &layers) else {
            let instance = found.instance!
            context.record(instance.dependencies)
            return instance
        }
        if let instance = layerInstance(of: found, layers: layers) {
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
        layers: inout Layers,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Instance? {
        switch claim(found, at: location, waiter: nil, layers: &layers) {
        case .building(let other):
            if let refusal = context.refusal(toBuild: found.entry) { throw refusal }
            try await Waits.wait(for: other, as: context.id, chain: context.chain)
            return nil
        case .elsewhere(let layer):
            return try await obtainAsync(found, Service.self, at: .layer(layer), layers: &layers, context: context)
        case .instance(let instance):
            context.record(instance.dependencies)
            return instance
        case .claimed(let construction):
            let child = context.child(building: found.entry, construction: construction)
            let view = ancestor(found.depth)
            let built = await Task { () async -> Result<Instance, ServiceHiveError> in
                do throws(ServiceHiveError) {
                    let value: Service = try await view.buildAsync(found.entry, view: view, context: child)
                    let dependencies = child.recorded.sealed(home: familyID)
                    return .success(found.entry.factory(of: Service.self).box(value, dependencies))
                } catch {
                    return .failure(error)
                }
            }.value
            let instance = try publish(found, at: location, by: construction, layers: &layers) {
                () throws(ServiceHiveError) in try built.get()
            }
            context.record(instance.dependencies)
            return instance
        }
    }
}
