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
}
