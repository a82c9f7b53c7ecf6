/// The current task's override layers, as a resolve sees them: read only when the family has live layers, or when a
/// cached instance that depends on another family's services asks for it, since reading the task-local costs about
/// 20 ns.
struct Layers {
    private(set) var isRead: Bool
    private(set) var stack: OverrideLayer?

    /// Not read yet.
    static var unread: Layers { Layers(isRead: false, stack: nil) }

    /// Reads the stack, once.
    mutating func read() -> OverrideLayer? {
        if !isRead { (isRead, stack) = (true, OverrideLayer.current) }
        return stack
    }

    /// Reads the stack, if `dependencies` reach into another family, whose layers a lookup of this family does not
    /// otherwise read.
    mutating func read(ifCrossing dependencies: Dependencies) {
        if !isRead, dependencies.crossesFamilies { _ = read() }
    }
}

/// What the one lookup found, under the family lock: only unretained references and numbers, valid while the lock is
/// held. A resolve copies a cached value out, or retains what it needs with ``retained(in:)``, before unlocking.
enum Hit {
    /// An instance this resolve may return as it is.
    case cached(Unmanaged<Instance>)
    /// A registration or an override to act on.
    case found(Match)
    case missing
    /// The resolver's hive has been released.
    case released
    /// A strict override layer on a searched hive has no override for the key.
    case notOverridden
    /// The resolve requires `Sendable`, and the registration found is not sure its instances are.
    case notSendable

    /// A registration or an override that the lookup found.
    struct Match {
        let entry: Unmanaged<Entry>
        /// The entry's lifetime, read while the lookup had it at hand.
        let lifetime: Lifetime
        /// Where the hive that answered is in the lineage.
        let depth: Int
        /// The depth of the override layer that declared the entry, or -1 for a hive's registration.
        let layer: Int
        /// What the registration's slot holds.
        let instance: Unmanaged<Instance>?
        let construction: Unmanaged<Construction>?
        /// For a forward of the asking hive that no layer affects: its target's cached instance, to convert.
        let target: Unmanaged<Instance>?
    }

    /// What the lookup found, retained, for use after unlocking; for a miss, what it saw, for the error.
    func retained(
        _ key: RegistrationKey, in core: HiveCore, _ state: borrowing FamilyState, layers: Layers
    ) -> Lookup {
        switch self {
        case .cached: preconditionFailure("a cached instance is read before unlocking")
        case .missing: return .missing(core.missing(key, in: state, layers: layers.stack))
        case .released: return .released
        case .notOverridden: return .notOverridden
        case .notSendable: return .notSendable
        case .found(let match): return .found(match.retained())
        }
    }
}

extension Hit.Match {
    /// What the lookup found, retained, for use after unlocking.
    func retained() -> Found {
        var seen = Found.Seen.nothing
        if let instance {
            seen = .instance(instance.takeUnretainedValue())
        } else if let construction {
            seen = .construction(construction.takeUnretainedValue())
        } else if let target {
            seen = .target(target.takeUnretainedValue())
        }
        return Found(entry: entry.takeUnretainedValue(), depth: depth, layer: layer, seen: seen)
    }
}

/// What a lookup found, retained.
enum Lookup {
    case found(Found)
    case missing(Missing)
    case released, notOverridden, notSendable
}

/// A registration or an override that a lookup found, retained.
///
/// What the lookup saw beside it is one enum rather than optional references: the compiler merges the outlined
/// destroys of several optional class references into one function that destroys them through the generic
/// `Optional` witnesses, which cost 156 instructions on every transient resolve
/// (`Benchmarks/count-instructions 01`, when measured).
struct Found {
    let entry: Entry
    /// Where the hive that answered is in the lineage.
    let depth: Int
    /// The depth of the override layer that declared the entry, or -1 for a hive's registration.
    let layer: Int
    let seen: Seen

    /// What the lookup saw in the registration's slot, or of a forward's target.
    enum Seen {
        case nothing
        case instance(Instance)
        case construction(Construction)
        /// For a forward of the asking hive that no layer affects: its target's cached instance, to convert.
        case target(Instance)
    }

    /// The instance cached beside the registration, if the lookup saw one.
    var instance: Instance? {
        if case .instance(let instance) = seen { return instance }
        return nil
    }

    /// The layer that declared the entry, when it is an override.
    func declaringLayer(in layers: Layers) -> OverrideLayer? {
        layer < 0 ? nil : layers.stack?.layer(at: layer)
    }
}

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
                    case .override(let override):
                        if key.requiresSendable && override.entry.unsureSendable { return .notSendable }
                        return .found(
                            Hit.Match(
                                entry: .passUnretained(override.entry), lifetime: override.entry.lifetime, depth: depth,
                                layer: override.depth, instance: nil, construction: nil, target: nil))
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
        // A weak instance is a reference to unwrap; an async factory's is not for a synchronous resolve.
        guard lifetime != .weak, async || lifetime != .async else { return false }
        if !layers.isRead, instance._withUnsafeGuaranteedRef({ $0.dependencies.crossesFamilies }) { _ = layers.read() }
        // A forward resolves its target as the asking hive would: a child of the forwarding hive may register the
        // target itself, and any layer may override it.
        if lifetime == .forward { return depth == lineage.startIndex && layers.stack == nil }
        guard let stack = layers.stack else { return true }
        return !stack.inSandbox
            && instance._withUnsafeGuaranteedRef { $0.dependencies.isEmpty || stack.owner(of: $0.dependencies) == nil }
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
