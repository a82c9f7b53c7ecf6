extension HiveCore {
    // MARK: - The resolution path

    /// Acts on what the first lookup of a synchronous resolve found, as one node of this thread's trace when it traces.
    /// Out of line, so that the cached path of `resolve` carries none of it (the comment there gives the counts).
    @inline(never)
    func resolveFound<Service>(
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
}
