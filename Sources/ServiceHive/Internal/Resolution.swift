/// The registration a lookup found, and where.
struct Found: Sendable {
    let entry: Entry
    /// The hives searched, nearest first, up to and including the one that answered.
    let searched: Lineage
    /// The layer that declared the entry, when it is an override.
    let layer: OverrideLayer?
    /// For a registration of a hive: what its slot held at the lookup.
    let slot: Slot
}

/// Whether the current task's override layers have been read.
enum LayerView {
    /// Not read: the family had no live layer at the lookup, so none applies to it.
    case unknown
    case known(OverrideLayer?)

    /// The innermost layer of the stack, if it has been read and there is one.
    var stack: OverrideLayer? {
        if case .known(let layer) = self { return layer }
        return nil
    }

    /// Reads the task-local stack, once.
    mutating func read() -> OverrideLayer? {
        if case .unknown = self { self = .known(OverrideLayer.current) }
        return stack
    }
}

extension HiveCore {
    // MARK: - The resolution path

    /// Resolves `key` as a `Service`. Every resolve, on a hive or on a resolver, comes here.
    ///
    /// The common case takes the lock once: no override layer is alive in the family, and the registration is a
    /// transient, whose factory then runs, or a singleton already cached, which is returned. Everything else takes
    /// `resolveInDetail`.
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
        let fast = family.withLock { state in quickLookUp(key, in: state, argumentsMatch: argumentsMatch) }
        let context = ThreadContext.current
        // While a shared construction records its dependencies, every resolve takes the detailed path.
        guard !context.isRecording else {
            return try resolveInDetail(key, arguments, argumentTypes, argumentsMatch, context: context)
        }
        switch fast {
        case .cached(let box):
            // Safe: only `publish` caches instances, each a `Box<Service>` of its entry's service type.
            return unsafeDowncast(box, to: Box<Service>.self).value
        case .transient(let entry):
            guard context.isIdle else { return try build(entry, view: self, arguments: arguments, context: context) }
            defer { context.endTopLevelResolve() }
            return try build(entry, view: self, arguments: arguments, context: context)
        case .detailed:
            return try resolveInDetail(key, arguments, argumentTypes, argumentsMatch, context: context)
        }
    }

    /// The common cases of a lookup, with the family lock held.
    @inline(__always)
    private func quickLookUp(
        _ key: RegistrationKey,
        in state: borrowing FamilyState,
        argumentsMatch: ([Any.Type]) -> Bool
    ) -> QuickLookup {
        guard state.liveLayers == 0, state.isLive(lineage[lineage.startIndex]) else { return .detailed }
        // Through a buffer pointer, the registries are read in place; through the array, each would be copied.
        return state.hives.withUnsafeBufferPointer { hives in
            for id in lineage {
                if let found = hives[id.index].registry.quickLookUp(key, argumentsMatch: argumentsMatch) { return found }
            }
            return .detailed
        }
    }

    /// Resolves `key` in every case: override layers, `.graph`, `.weak`, building shared instances, dependency
    /// recording, and failures. Find the registration, then one switch on its scope.
    private func resolveInDetail<Service>(
        _ key: RegistrationKey,
        _ arguments: UnsafeRawPointer?,
        _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let isTopLevel = context.isIdle
        defer { if isTopLevel { context.endTopLevelResolve() } }
        var layers = LayerView.unknown
        while true {
            let found: Found
            switch lookUp(key, layers: &layers, argumentsMatch: argumentsMatch) {
            case .found(let registration):
                found = registration
            case .missing(let missing):
                if context.isRecording { context.record(miss(key)) }
                if let optional = Service.self as? any OptionalService.Type, key.arguments == nil {
                    // Safe: `resolveWrapped` returns `Self`, which is `Service`.
                    return try optional.resolveWrapped(with: self, name: key.name, chain: context.chainKeys()) as! Service
                }
                throw missingError(key, Service.self, argumentTypes(), missing, context: context)
            case .released:
                throw .hiveReleased(ServiceHive.ServiceKey(service: typeName(Service.self), name: key.name))
            case .notOverridden:
                let requested = ServiceHive.ServiceKey(
                    service: typeName(Service.self), name: key.name, argumentTypes: argumentTypes().map(typeName))
                throw .notOverridden(requested, chain: context.chainKeys())
            }
            if context.isRecording {
                context.record(Dependency(family: familyID, key: key, searched: found.searched, entry: found.entry))
            }
            switch found.entry.lifetime {
            case .transient:
                return try build(found.entry, view: self, arguments: arguments, context: context)
            case .graph:
                return try graphInstance(found, layers: layers, context: context)
            case .shared, .weak:
                if let value: Service = try sharedInstance(found, layers: &layers, context: context) { return value }
            // The construction this resolve waited for has ended: look again.
            }
        }
    }

    /// Finds the registration for `key` as this resolver's hive sees it: for each hive of its lineage, the innermost
    /// override of that hive first, then the hive's own registrations.
    private func lookUp(
        _ key: RegistrationKey,
        layers: inout LayerView,
        argumentsMatch: ([Any.Type]) -> Bool
    ) -> Lookup {
        while true {
            let result = family.withLock { (state) -> Lookup? in
                if case .unknown = layers, state.liveLayers > 0 { return nil }
                return find(key, in: &state, layers: layers.stack, argumentsMatch: argumentsMatch)
            }
            if let result { return result }
            _ = layers.read()  // A layer may apply: read the task-local stack, and look again.
        }
    }

    /// The lookup itself, with the family lock held.
    @inline(__always)
    func find(
        _ key: RegistrationKey,
        in state: inout FamilyState,
        layers: OverrideLayer?,
        argumentsMatch: ([Any.Type]) -> Bool
    ) -> Lookup {
        for index in lineage.indices {
            let id = lineage[index]
            if let layers, let (entry, layer) = layers.override(for: key, on: id, of: familyID),
                key.arguments == nil || argumentsMatch(entry.argumentTypes)
            {
                return .found(Found(entry: entry, searched: lineage[...index], layer: layer, slot: .empty))
            }
            if let strict = layers?.strictLayer(on: id, of: familyID) { return .notOverridden(strict) }
            guard state.isLive(id) else { return .released }
            if let record = state.hives[id.index].registry[key],
                key.arguments == nil || argumentsMatch(record.entry.argumentTypes)
            {
                return .found(Found(entry: record.entry, searched: lineage[...index], layer: nil, slot: record.slot))
            }
        }
        return .missing(missing(key, in: state, layers: layers))
    }

    // MARK: - Scopes

    /// A `.graph` instance: the one already built in this top-level resolve, or a new one.
    private func graphInstance<Service>(
        _ found: Found,
        layers: LayerView,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let layerID = layers.stack.map(ObjectIdentifier.init)
        if let shared = context.graphInstance(of: found.entry, searched: found.searched, layers: layerID) {
            if context.isRecording { context.record(shared.box.dependencies) }
            // Safe: only this function adds graph instances, each a `Box<Service>` of its entry's service type.
            return unsafeDowncast(shared.box, to: Box<Service>.self).value
        }
        let isRecording = context.isRecording
        if isRecording { context.beginRecording() }
        let value: Service
        do throws(ServiceHiveError) {
            value = try build(found.entry, view: self, arguments: nil, context: context)
        } catch {
            if isRecording { _ = context.endRecording() }
            throw error
        }
        let dependencies = isRecording ? context.endRecording() : .none
        context.addGraphInstance(
            GraphInstance(
                entry: found.entry, builtBy: id, layers: layerID, box: Box(value, dependencies: dependencies)))
        return value
    }

    // MARK: - Building

    /// Runs `entry`'s factory with this thread's chain extended by `entry`.
    ///
    /// - Parameter view: The hives the factory's resolver searches: the asking hive's lineage for a transient, the
    ///   declaring hive's for a shared instance, so that a parent's singleton never captures a child's services.
    func build<Service>(
        _ entry: Entry,
        view: HiveCore,
        arguments: UnsafeRawPointer?,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        if let instance = entry.instance {
            // Safe: `Entry.init` stores a `Box<Service>` of its own service type.
            return unsafeDowncast(instance, to: Box<Service>.self).value
        }
        if !context.isIdle, let refusal = context.refusal(toBuild: entry) { throw refusal }
        context.push(entry)
        defer { context.pop() }
        do {
            return try entry.factory(of: Service.self).make(ServiceHive.Resolver(core: view), arguments)
        } catch let error as ServiceHiveError {
            throw error  // A nested resolve's error passes through, with its chain.
        } catch {
            throw .factoryFailed(entry.serviceKey, chain: context.chainKeys(dropping: 1), underlying: error)
        }
    }
}

/// What the common case of a lookup found.
enum QuickLookup: Sendable {
    case cached(Instance)
    case transient(Entry)
    case detailed
}

/// What a lookup under the family lock found.
enum Lookup: Sendable {
    case found(Found)
    /// Nothing answers.
    case missing(Missing)
    /// The resolver's hive has been released.
    case released
    /// A strict override layer on a searched hive has no override for the key.
    case notOverridden(OverrideLayer)
}
