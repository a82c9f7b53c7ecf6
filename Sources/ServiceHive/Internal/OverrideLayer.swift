/// One `withOverrides` call, or one validation: the overrides it declares for one hive, and the shared instances that
/// belong to it.
///
/// Layers form a stack in the task-local ``current``, innermost first; child tasks inherit it and `Task.detached`
/// does not. While a layer lives it counts in its family's `liveLayers`, which is what tells the resolution path to
/// read the task-local at all.
final class OverrideLayer: Sendable {
    /// The layers of the current task, innermost first.
    @TaskLocal static var current: OverrideLayer?

    enum Kind: Sendable {
        /// `withOverrides`: shared instances belong to the layer when they were built from one of its overrides.
        case overrides
        /// A strict `withOverrides`: as `overrides`, and a resolve through the layer's hive that no override answers
        /// fails.
        case strict
        /// `validate()`: every shared instance built while the layer is active belongs to it, so nothing built while
        /// validating outlives validation.
        case sandbox
    }

    /// The hive whose resolves the layer overrides, with the resolves of its descendants that fall back to it. The
    /// layer keeps it alive.
    let hive: ServiceHive
    let kind: Kind
    /// The layer that was active when this one began, for any hive.
    let outer: OverrideLayer?
    /// The overrides, immutable once the layer begins.
    let overrides: Registry
    /// Guards, and only guards, the shared instances that belong to this layer, by the identity of their entry.
    let instances = Locked<[ObjectIdentifier: LayerSlot]>([:])

    /// The layer's hive, and its family: read on every resolve under the layer, so kept at hand.
    let hiveID: HiveID
    let familyID: ObjectIdentifier
    /// Whether this layer or an outer one is a sandbox.
    let inSandbox: Bool

    init(hive: ServiceHive, kind: Kind, overrides: [Entry], outer: OverrideLayer?) {
        self.hive = hive
        self.kind = kind
        self.outer = outer
        hiveID = hive.id
        familyID = ObjectIdentifier(hive.family)
        inSandbox = kind == .sandbox || outer?.inSandbox == true
        var registry = Registry()
        for (sequence, entry) in overrides.enumerated() where !registry.contains(entry.key) {
            registry.insert(Record(entry: entry, sequence: UInt64(sequence)))
        }
        self.overrides = registry
        hive.family.withLock { $0.liveLayers += 1 }
    }

    deinit {
        hive.family.withLock { $0.liveLayers -= 1 }
        var overrides = overrides
        _ = overrides.drain()
        // `instances` is released after this body, outside every lock: an instance's `deinit` may resolve.
    }

    /// The innermost layer of this stack, this one or an outer one, that `matches`.
    @inline(__always)
    func first(where matches: (OverrideLayer) -> Bool) -> OverrideLayer? {
        var layer: OverrideLayer? = self
        while let current = layer {
            if matches(current) { return current }
            layer = current.outer
        }
        return nil
    }

    /// Whether this layer is on the hive `id` of `family`.
    @inline(__always)
    func isOn(_ id: HiveID, of family: ObjectIdentifier) -> Bool { hiveID == id && familyID == family }

    /// The override that a layer of this stack declares for `key` on the hive `id` of `family`, innermost first.
    func override(for key: RegistrationKey, on id: HiveID, of family: ObjectIdentifier) -> (Entry, OverrideLayer)? {
        var entry: Entry?
        let layer = first { layer in
            guard layer.isOn(id, of: family) else { return false }
            entry = layer.overrides.entry(for: key)
            return entry != nil
        }
        guard let entry, let layer else { return nil }
        return (entry, layer)
    }

    /// What the layers of this stack on the hive `id` of `family` say of `key`, in one walk: the innermost override
    /// of it, or else whether a strict layer refuses it.
    ///
    /// It recurses rather than loops: a loop variable retains and releases each layer it visits, which cost a
    /// sixth of a resolve inside an override (`Benchmarks/count-instructions 08b`: 734 → 619).
    func answer(for key: RegistrationKey, on id: HiveID, of family: ObjectIdentifier, strict: Bool = false) -> Answer {
        var strict = strict
        if isOn(id, of: family) {
            if let entry = overrides.entry(for: key) { return .override(entry) }
            strict = strict || kind == .strict
        }
        guard let outer else { return strict ? .strict : .none }
        return outer.answer(for: key, on: id, of: family, strict: strict)
    }

    /// What a stack of layers says of one key on one hive.
    enum Answer {
        case override(Entry)
        case strict
        case none
    }

    /// The innermost strict layer of this stack on the hive `id` of `family`.
    func strictLayer(on id: HiveID, of family: ObjectIdentifier) -> OverrideLayer? {
        first { $0.kind == .strict && $0.isOn(id, of: family) }
    }

    /// The innermost layer of this stack that an instance built from `dependencies` must belong to: a sandbox, or a
    /// layer that overrides one of the lookups. `nil` when the instance may be shared with the world outside.
    func owner(of dependencies: Dependencies) -> OverrideLayer? {
        if dependencies.isEmpty, !inSandbox { return nil }
        return first { layer in
            layer.kind == .sandbox || dependencies.lookups.contains { layer.overrides($0) }
        }
    }

    /// The innermost sandbox of this stack.
    var sandbox: OverrideLayer? { inSandbox ? first { $0.kind == .sandbox } : nil }

    /// Whether this layer would have answered `lookup` with one of its overrides.
    private func overrides(_ lookup: Dependency) -> Bool {
        lookup.family == familyID && overrides.contains(lookup.key) && lookup.searched.contains(hiveID)
    }
}

/// A shared instance that belongs to an override layer. It keeps its entry alive, so that the entry's identity, the
/// key, is not reused while the instance is cached.
struct LayerSlot: Sendable {
    let entry: Entry
    var slot: Slot
}
