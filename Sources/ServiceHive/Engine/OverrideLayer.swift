import Synchronization

/// One `withOverrides` call, or one validation: the overrides it declares for one hive, and the shared instances that
/// belong to it.
///
/// Layers form a stack in the task-local ``bound``, innermost first; child tasks inherit it and `Task.detached`
/// does not. While a layer lives it counts in its family's `liveLayers`, which is what tells the resolution path to
/// read the task-local at all.
///
/// A layer folds the overrides of every outer layer into its own table when it is made, as swift-dependencies copies
/// the outer values into each new scope: a lookup under any number of layers reads one table, and never walks the
/// stack.
final class OverrideLayer: Sendable {
    /// The layers of the current task, innermost first.
    static var current: OverrideLayer? { bound.innermost }

    /// The current task's layers, as the task-local binds them: in a class of their own, so that reading the
    /// task-local copies one reference, where an `Optional` is copied through its generic witnesses
    /// (`Benchmarks/count-instructions 08b`: 543 instructions, not 555).
    @TaskLocal static var bound = Binding(nil)

    /// What `bound` holds: the innermost layer, or `nil`.
    final class Binding: Sendable {
        let innermost: OverrideLayer?
        /// The innermost layer's `serial`, or 0: what a thread's kept answer records of the layers it was found under.
        let serial: UInt64
        init(_ innermost: OverrideLayer?) {
            self.innermost = innermost
            serial = innermost?.serial ?? 0
        }
    }

    /// The `serial` of the current task's innermost layer, or 0 outside any: read by a cached resolve while its family
    /// has a live layer, to tell whether an answer its thread kept was found under the same layers.
    @inline(never)
    static func currentSerial() -> UInt64 { bound.serial }

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
    /// 0 for the outermost layer of a stack; one more for each layer inside it.
    let depth: Int
    /// The overrides of this layer and of every outer one, by service, innermost first. Immutable.
    private let visible: ServiceTable<[Override]>
    /// The services that this layer or an outer one overrides, as `ServiceMask` bits.
    private let services: UInt64
    /// The hives on which this layer or an outer one is strict.
    private let strictHives: [Override.Hive]
    /// The depth of the innermost sandbox of this stack, or -1.
    private let sandboxDepth: Int
    /// Guards, and only guards, the shared instances that belong to this layer, by the identity of their entry.
    let instances = Locked(ServiceTable<LayerSlot>())
    /// A number no other layer of the process has, from 1: it names this layer, and with it every outer one, in the
    /// answers that threads keep (`KeptAnswer.layers`), where an address could be a later layer's.
    let serial = OverrideLayer.serials.wrappingAdd(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    init(hive: ServiceHive, kind: Kind, overrides: [Entry], outer: OverrideLayer?) {
        self.hive = hive
        self.kind = kind
        self.outer = outer
        depth = (outer?.depth ?? -1) + 1
        let on = Override.Hive(family: ObjectIdentifier(hive.family), id: hive.id)
        var visible = outer?.visible.copy() ?? ServiceTable()
        var declared: Set<RegistrationKey> = []
        for entry in overrides where declared.insert(entry.key).inserted {  // The first of a key wins.
            let override = Override(entry: entry, hive: on, depth: depth)
            visible.update(entry.key.service, empty: { [] }) { $0.insert(override, at: 0) }
        }
        self.visible = visible
        var services: UInt64 = 0
        visible.forEachKey { services |= ServiceMask.bit(of: $0) }
        self.services = services
        strictHives = (kind == .strict ? [on] : []) + (outer?.strictHives ?? [])
        sandboxDepth = kind == .sandbox ? depth : outer?.sandboxDepth ?? -1
        hive.family.withLock { state in
            // From now on a resolve in the family may have to answer otherwise than its thread's kept answers.
            if state.liveLayers == 0 { state.changeEveryHive(layered: true) }
            state.liveLayers += 1
        }
    }

    deinit {
        hive.family.withLock { state in
            state.liveLayers -= 1
            if state.liveLayers == 0 { state.changeEveryHive(layered: false) }
        }
        visible.destroy()
        let instances = instances.withLock { exchange(&$0, with: ServiceTable()) }
        instances.destroy()  // Outside every lock: an instance's `deinit` may resolve.
    }

    /// The layer of this stack at `depth`.
    func layer(at depth: Int) -> OverrideLayer {
        var layer = self
        while layer.depth > depth { layer = layer.outer.unsafelyUnwrapped }  // Safe: depths count down to 0.
        return layer
    }

    /// Whether this stack may say anything of `service`: it overrides it on some hive, or is strict on one. The lookup
    /// asks `answer` only when it may: asking it for every resolve under a layer cost `Benchmarks/count-instructions
    /// 08b` 48 instructions more, when measured.
    func mayAnswer(for service: ObjectIdentifier) -> Bool {
        !strictHives.isEmpty || visible.index(of: service) != nil
    }

    /// What this stack says of `key` on the hive `on`: the innermost override of it whose arguments match, or else
    /// whether a strict layer on that hive refuses it.
    ///
    /// The overrides are read in place, field by field, and the entry answered unretained, valid while this layer lives:
    /// copying each override out retained and released its entry, and reading them through a buffer retained the array
    /// (`Benchmarks/count-instructions 08c`: 779 instructions, not 736).
    ///
    /// Out of line, as ``kept(_:)`` is: inlined into the lookup, they left a resolve outside any override more
    /// registers to save, though it never runs them (`count-instructions 02`: 344 instructions, not 312; 15: 345, not
    /// 319).
    @inline(never)
    func answer(for key: RegistrationKey, on hive: Override.Hive, argumentsMatch: ([Any.Type]) -> Bool) -> Answer {
        if let bucket = visible.index(of: key.service) {
            // Field by field, in place: copying an override out, or the array into a buffer, retains it.
            for index in 0..<visible[bucket: bucket].count where visible[bucket: bucket][index].hive == hive {
                let entry = Unmanaged.passUnretained(visible[bucket: bucket][index].entry)
                let matches = entry._withUnsafeGuaranteedRef {
                    $0.key == key && (key.arguments == nil || argumentsMatch($0.argumentTypes))
                }
                if matches { return .override(entry, depth: visible[bucket: bucket][index].depth) }
            }
        }
        return !strictHives.isEmpty && strictHives.contains(hive) ? .strict : .none
    }

    /// What a stack of layers says of one key on one hive.
    enum Answer {
        /// The override's entry, and the depth of the layer that declared it.
        case override(Unmanaged<Entry>, depth: Int)
        case strict
        case none
    }

    /// Whether a layer of this stack is strict on the hive `on`.
    func isStrict(on hive: Override.Hive) -> Bool {
        !strictHives.isEmpty && strictHives.contains(hive)
    }

    /// What this stack declares for a collection on the hive `on`, where `service` is the collection's key space
    /// (`RegistrationKey.collectionService(of:)`): its contributions, the outermost layer's first and each layer's in the order declared,
    /// with the depth of the layer that declared each; and the depth of the innermost layer that replaces the
    /// collection there, or -1.
    func collection(_ service: ObjectIdentifier, on hive: Override.Hive) -> (
        contributions: [(entry: Entry, depth: Int)], replacedAt: Int
    ) {
        guard let bucket = visible.index(of: service) else { return ([], -1) }
        var contributions: [(entry: Entry, depth: Int)] = []
        var replacedAt = -1
        // `visible` holds them innermost first, and each layer's in the reverse of the order declared.
        for override in visible[bucket: bucket].reversed() where override.hive == hive {
            if override.entry.isContribution {
                contributions.append((override.entry, override.depth))
            } else {
                replacedAt = max(replacedAt, override.depth)
            }
        }
        return (contributions, replacedAt)
    }

    /// Every override of `service` on the hive `on`, for error messages.
    func overrides(of service: ObjectIdentifier, on hive: Override.Hive) -> [Entry] {
        guard let bucket = visible.index(of: service) else { return [] }
        return visible[bucket: bucket].filter { $0.hive == hive }.map(\.entry)
    }

    /// The layer of this stack that a shared instance belongs to, when it was built from `dependencies` for an entry
    /// that the layer at depth `declared` overrides (-1 for a hive's registration): the innermost of that layer, a
    /// sandbox, and the layers that override a lookup the construction made. `nil` when it belongs to none, and is
    /// shared with the world outside, beside its registration.
    ///
    /// The stack's part of the placement rule, which only `HiveCore.placement(of:builtFrom:declaredAt:under:)` asks.
    /// A construction's lookups are read only when this stack may override one of their services (`services`,
    /// `Dependencies.services`).
    ///
    /// A lookup is overridden by an override of its key; a resolve of a collection, which records the collection's key,
    /// by any contribution or replacement of that collection on a hive it searched (`Entry.answers(_:)`).
    func owner(of dependencies: Dependencies, declaredAt declared: Int) -> OverrideLayer? {
        var owner = max(declared, sandboxDepth)
        if dependencies.services & services != 0 {
            for lookup in dependencies.lookups {
                guard let bucket = visible.index(of: lookup.key.service) else { continue }
                for override in visible[bucket: bucket]
                where override.depth > owner && override.hive.family == lookup.family
                    && override.entry.answers(lookup.key) && lookup.searched.contains(override.hive.id)
                {
                    owner = override.depth
                }
            }
        }
        return owner < 0 ? nil : layer(at: owner)
    }

    /// Whether this stack may own an instance of a hive's registration whose construction looked up `services`
    /// (`Dependencies.services`): it is a sandbox, or it overrides a service that may be one of them. Read before
    /// ``owner(of:declaredAt:)``, which says for sure, through `HiveCore.mayPlaceInLayer(builtFrom:under:)`.
    func mayOwn(services: UInt64) -> Bool {
        sandboxDepth >= 0 || services & self.services != 0
    }

    /// The instance of `entry` that this layer keeps, unretained, when it is not a weak one; for a lookup, with its
    /// family's lock held: the one place where two locks nest, and nothing takes a family's lock while it holds a
    /// layer's. Safe to read after unlocking while the layer lives, which it does while it is in the current task's
    /// stack: a layer never lets go of an instance that is not weak. Out of line, as ``answer(for:on:argumentsMatch:)``
    /// says.
    @inline(never)
    func kept(_ entry: Unmanaged<Entry>) -> Unmanaged<Instance>? {
        let key = entry._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
        return instances.withLock { instances in
            guard let bucket = instances.index(of: key),
                let instance = instances[bucket: bucket].slot.instance, !instance.isWeak
            else { return nil }
            return Unmanaged.passUnretained(instance)
        }
    }

    /// The instance of `entry` that this layer keeps, if any.
    func instance(of entry: Entry) -> Instance? {
        instances.withLock { instances in
            instances.index(of: ObjectIdentifier(entry)).flatMap { instances[bucket: $0].slot.instance }
        }
    }
}

/// An override, as a layer's table keeps it: the entry, the hive it overrides, and the depth of the layer that
/// declared it.
struct Override: Sendable {
    let entry: Entry
    let hive: Hive
    let depth: Int

    /// A hive, with its family: layers of one stack may override hives of several families.
    struct Hive: Hashable, Sendable {
        let family: ObjectIdentifier
        let id: HiveID
    }
}

/// A shared instance that belongs to an override layer. It keeps its entry alive, so that the entry's identity, the
/// key, is not reused while the instance is cached.
struct LayerSlot: Sendable {
    let entry: Entry
    var slot: Slot
}

extension Entry {
    /// Whether this override answers a lookup of `key`, for the ownership rule: it is the override of that key, or a
    /// contribution and `key` the key of its collection, which a resolve of the collection records.
    func answers(_ key: RegistrationKey) -> Bool {
        self.key == key || (isContribution && key.isPlain)
    }
}
