extension HiveCore {
    /// The one lookup: finds the registration for `key` as this hive sees it, with the family lock held. For each hive
    /// of the lineage, the current task's overrides of that hive come first, then the hive's own registrations.
    ///
    /// - Parameters:
    ///   - mayCache: Whether a cached instance that this resolve may use as it is can be answered as `.cached`; a
    ///     resolve that must record or trace what it finds asks for `.found` instead, as one does while the family has
    ///     a trace handler.
    ///   - async: Whether the caller is `resolveAsync`, which may take the cached instance of an async factory.
    ///
    /// Inlined into each resolve: called, `Benchmarks/count-instructions 02` cost 387 instructions, not 307 (01: 884,
    /// not 792; 18: 517, not 427).
    @inline(__always)
    func lookUp(
        _ key: RegistrationKey,
        in state: borrowing FamilyState,
        layers: inout Layers,
        argumentsMatch: ([Any.Type]) -> Bool,
        mayCache: Bool,
        async: Bool
    ) -> Hit {
        if !layers.isRead, state.liveLayers != 0 { _ = layers.read() }
        guard state.isLive(lineage[lineage.startIndex]) else { return .released }
        let mayCache = mayCache && state.diagnostics.trace == nil  // A trace notes what it found cached.
        // Through a buffer pointer, the registries are read in place; through the array, each would be copied.
        return state.hives.withUnsafeBufferPointer { hives in
            for depth in lineage.indices {
                let id = lineage[depth]
                if let stack = layers.stack, stack.mayAnswer(for: key.service) {
                    let hive = Override.Hive(family: familyID, id: id)
                    switch stack.answer(for: key, on: hive, argumentsMatch: argumentsMatch) {
                    case .override(let entry, let layer):
                        let (unsure, lifetime) = entry._withUnsafeGuaranteedRef {
                            (key.requiresSendable && $0.unsureSendable, $0.lifetime)
                        }
                        if unsure { return .notSendable }
                        if mayCache, keeps(lifetime, async), let instance = stack.kept(entry) {
                            return .cached(instance)
                        }
                        return .found(
                            Hit.Match(
                                entry: entry, lifetime: lifetime, depth: depth, layer: layer, instance: nil,
                                construction: nil, target: nil))
                    case .strict: return .notOverridden
                    case .none: break
                    }
                }
                guard let peek = hives[id.index].registry.peek(key) else { continue }
                let (matches, unsure, lifetime) = peek.entry._withUnsafeGuaranteedRef {
                    (
                        key.arguments == nil || argumentsMatch($0.argumentTypes),
                        key.requiresSendable && $0.unsureSendable, $0.lifetime
                    )
                }
                guard matches else { continue }
                if unsure { return .notSendable }
                if mayCache, let instance = peek.instance,
                    isUsable(instance, lifetime, depth: depth, layers: &layers, async: async)
                {
                    return .cached(instance)
                }
                if mayCache, keeps(lifetime, async), let stack = layers.stack, let instance = stack.kept(peek.entry) {
                    return .cached(instance)
                }
                let forwardable =
                    lifetime == .forward && mayCache && peek.instance == nil && depth == lineage.startIndex
                let target = forwardable ? forwardTarget(of: peek.entry, in: hives[id.index].registry, &layers) : nil
                return .found(
                    Hit.Match(
                        entry: peek.entry, lifetime: lifetime, depth: depth, layer: -1, instance: peek.instance,
                        construction: peek.construction, target: target))
            }
            return .missing
        }
    }

    /// Whether the instance cached beside a registration found at `depth` serves this resolve as it is: no override of
    /// the current task affects it, no validation is running, and the caller can take it.
    ///
    /// Read through guaranteed references, as the instance is read when returned: through `takeUnretainedValue()`,
    /// which retains, `Benchmarks/count-instructions 02` cost 371 instructions, not 312, when measured.
    private func isUsable(
        _ instance: Unmanaged<Instance>,
        _ lifetime: Lifetime,
        depth: Int,
        layers: inout Layers,
        async: Bool
    ) -> Bool {
        if !layers.isRead, instance._withUnsafeGuaranteedRef({ $0.dependencies.crossesFamilies }) { _ = layers.read() }
        // A forward resolves its target as the asking hive would: a child of the forwarding hive may register the
        // target itself, and any layer may override it.
        if lifetime == .forward { return depth == lineage.startIndex && layers.stack == nil }
        // A weak instance is a reference to unwrap; an async factory's is not for a synchronous resolve.
        guard lifetime != .weak, async || lifetime != .async else { return false }
        guard let stack = layers.stack else { return true }
        return !stack.inSandbox
            && instance._withUnsafeGuaranteedRef { $0.dependencies.isEmpty || stack.owner(of: $0.dependencies) == nil }
    }

    /// Whether an override layer may keep the instance of a registration with `lifetime`, for this resolve: a shared
    /// one, or an async factory's for `resolveAsync`.
    ///
    /// The innermost layer's instance serves any resolve under a stack that it tops (`layerInstance(of:layers:)` says
    /// why). That is what a test with a mock asks for on every resolve: found by the lookup, under the family lock, it
    /// costs one more lock and one probe, where going through `sharedInstance` cost `Benchmarks/count-instructions 08c`
    /// 1,505 instructions, not 786.
    private func keeps(_ lifetime: Lifetime, _ async: Bool) -> Bool {
        lifetime == .shared || (async && lifetime == .async)
    }

    /// For a forward of the asking hive whose converted instance is not cached: its target's instance, when the target
    /// is a singleton of the same registry already built, and no layer of the current task can override it.
    private func forwardTarget(
        of entry: Unmanaged<Entry>,
        in registry: Registry,
        _ layers: inout Layers
    ) -> Unmanaged<Instance>? {
        guard let target = entry._withUnsafeGuaranteedRef({ $0.target }), let peek = registry.peek(target),
            let instance = peek.instance, peek.entry._withUnsafeGuaranteedRef({ $0.lifetime == .shared })
        else { return nil }
        layers.read(ifCrossing: instance._withUnsafeGuaranteedRef { $0.dependencies })
        return layers.stack == nil ? instance : nil
    }

    /// The lookup, taking the lock; for every resolve but the first lookup of a synchronous one.
    func lookUp(_ key: RegistrationKey, layers: inout Layers, argumentsMatch: ([Any.Type]) -> Bool) -> Lookup {
        let state = family.lock()
        defer { family.unlock() }
        return lookUp(
            key, in: state.pointee, layers: &layers, argumentsMatch: argumentsMatch, mayCache: false, async: false
        )
        .retained(key, in: self, state.pointee, layers: layers)
    }

    /// Whether a lookup of `key` finds a registration whose argument types `matches` accepts.
    func contains(_ key: RegistrationKey, matches: ([Any.Type]) -> Bool) -> Bool {
        var layers = Layers.unread
        _ = layers.read()
        if case .found = lookUp(key, layers: &layers, argumentsMatch: matches) { return true }
        return false
    }

    /// The lookup a construction made when nothing answered: a dependency too, since an override would answer it.
    func miss(_ key: RegistrationKey) -> Dependency {
        Dependency(family: familyID, key: key, searched: lineage, entry: nil)
    }
}
