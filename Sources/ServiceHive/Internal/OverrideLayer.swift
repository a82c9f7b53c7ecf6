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

    init(hive: ServiceHive, kind: Kind, overrides: [Entry], outer: OverrideLayer?) {
        self.hive = hive
        self.kind = kind
        self.outer = outer
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

    /// The identity of the layer's hive family.
    var familyID: ObjectIdentifier { ObjectIdentifier(hive.family) }

    /// This layer and every outer one, innermost first.
    var stack: UnfoldSequence<OverrideLayer, (OverrideLayer?, Bool)> {
        sequence(first: self) { $0.outer }
    }

    /// The override that a layer of this stack declares for `key` on the hive `id` of `family`, innermost first.
    func override(for key: RegistrationKey, on id: HiveID, of family: ObjectIdentifier) -> (Entry, OverrideLayer)? {
        for layer in stack where layer.hive.id == id && layer.familyID == family {
            if let entry = layer.overrides.entry(for: key) { return (entry, layer) }
        }
        return nil
    }

    /// Whether a layer of this stack overrides `key` on the hive `id` of `family`, or is strict there.
    @inline(__always)
    func affects(_ key: RegistrationKey, on id: HiveID, of family: ObjectIdentifier) -> Bool {
        stack.contains { layer in
            layer.hive.id == id && layer.familyID == family && (layer.kind == .strict || layer.overrides.contains(key))
        }
    }

    /// The innermost strict layer of this stack on the hive `id` of `family`.
    func strictLayer(on id: HiveID, of family: ObjectIdentifier) -> OverrideLayer? {
        stack.first { $0.kind == .strict && $0.hive.id == id && $0.familyID == family }
    }

    /// The innermost layer of this stack that an instance built from `dependencies` must belong to: a sandbox, or a
    /// layer that overrides one of the lookups. `nil` when the instance may be shared with the world outside.
    func owner(of dependencies: Dependencies) -> OverrideLayer? {
        if dependencies.isEmpty, sandbox == nil { return nil }
        return stack.first { layer in
            layer.kind == .sandbox || dependencies.lookups.contains { layer.overrides($0) }
        }
    }

    /// The innermost sandbox of this stack.
    var sandbox: OverrideLayer? { stack.first { $0.kind == .sandbox } }

    /// Whether this layer would have answered `lookup` with one of its overrides.
    private func overrides(_ lookup: Dependency) -> Bool {
        lookup.family == familyID && overrides.contains(lookup.key)
            && lookup.searched.contains(hive.id)
    }
}

/// A shared instance that belongs to an override layer. It keeps its entry alive, so that the entry's identity, the
/// key, is not reused while the instance is cached.
struct LayerSlot: Sendable {
    let entry: Entry
    var slot: Slot
}
