extension HiveCore {
    // MARK: - Building

    /// Builds a transient instance from this hive's view, and runs its post-construction hook.
    @inline(__always)
    func buildTransient<Service>(
        _ entry: Entry,
        arguments: UnsafeRawPointer?,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let value: Service = try build(entry, view: self, arguments: arguments, context: context)
        if entry.hasCompletedHook { try complete(entry, value, view: self, context: context) }
        return value
    }

    /// Runs `entry`'s post-construction hook on `value`, with `entry` on the chain.
    @inline(never)
    func complete<Service>(
        _ entry: Entry,
        _ value: Service,
        view: HiveCore,
        context: ThreadContext
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
        _ entry: Entry,
        view: HiveCore,
        arguments: UnsafeRawPointer?,
        context: ThreadContext
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
