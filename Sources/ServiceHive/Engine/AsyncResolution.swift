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

    /// Takes the steps of an async resolve of `key` in `context`, the current task's or a new top-level one, until one
    /// gives the instance: it waits by suspending, and builds async factories in tasks (`Building.swift`). The inlined
    /// `resolveAsync` has looked in the cache already whenever `context` does not record.
    nonisolated(nonsending) private func resolveAsync<Service>(
        _ key: RegistrationKey,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        var layers = Layers.unread
        while true {
            let lookup = lookUp(key, layers: &layers, argumentsMatch: { $0.isEmpty })
            guard case .found(let found) = lookup else {
                context.record(miss(key))
                return try unanswered(lookup, key, [], chain: context.chainKeys())
            }
            guard found.entry.isAsync else {
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in try resolve(key) }
            }
            switch try step(found, for: key, layers: &layers, context: context) {
            case .use(let instance):
                return instance.value()  // Never a weak instance: an async factory cannot build one.
            case .wait(let pending):
                if let refusal = context.refusal(toBuild: found.entry) { throw refusal }
                try await Waits.wait(for: pending, as: context.id, chain: context.chain)
            case .build(let destination):
                return try await build(found, for: destination, layers: &layers, context: context)
            case .lookAgain:
                break
            }
        }
    }

    /// Runs `resolve`, a synchronous resolve made from async code, recording what it used for the shared construction
    /// that `context` is part of.
    func resolveSynchronously<Service>(
        for context: AsyncContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        let thread = ThreadContext.current
        // The async resolve hands its failure to the hook; the synchronous one it runs must not too.
        thread.state.pointee.asyncCrossings += 1
        defer { thread.state.pointee.asyncCrossings -= 1 }
        guard context.isRecording else { return try resolve() }
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

    // MARK: - Building what a step decided, in a task

    /// Builds the instance that a step of an async resolve decided to build, and keeps it where the step said. A shared
    /// instance is built in a task of its own, so that no waiter's cancellation can cancel it.
    func build<Service>(
        _ found: Found,
        for destination: Destination,
        layers: inout Layers,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        let entry = found.entry
        switch destination {
        case .caller:
            return try await buildAsync(entry, view: self, context: context.child(building: entry, pending: nil))
        case .graph(let innermost):
            let value: Service = try await buildAsync(
                entry, view: self, context: context.child(building: entry, pending: nil))
            let box = entry.factory(of: Service.self).box(value, .none)
            context.addGraphInstance(GraphInstance(entry: entry, builtBy: id, layers: innermost, box: box))
            return value
        case .slot(let pending, let location):
            let child = context.child(building: entry, pending: pending)
            let view = ancestor(found.depth)
            let built = await Task { () async -> Result<Instance, ServiceHiveError> in
                do throws(ServiceHiveError) {
                    let value: Service = try await view.buildAsync(entry, view: view, context: child)
                    return .success(entry.factory(of: Service.self).box(value, child.recorded.sealed(home: familyID)))
                } catch {
                    return .failure(error)
                }
            }.value
            switch built {
            case .failure(let error):
                release(pending, of: entry, at: location)
                throw error
            case .success(let instance):
                publish(instance, of: found, at: location, by: pending, layers: &layers)
                context.record(instance.dependencies)
                // Safe: built above, a `Box` of the entry's service type.
                return unsafeDowncast(instance, to: Box<Service>.self).value
            }
        }
    }

    /// Runs an async factory in `context`, the context made for it.
    func buildAsync<Service>(
        _ entry: Entry,
        view: HiveCore,
        context: AsyncContext
    ) async throws(ServiceHiveError) -> Service {
        if let refusal = context.parent?.refusal(toBuild: entry) { throw refusal }
        // Safe: an entry whose factory is async was made with a `Maker(async:)`.
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
}
