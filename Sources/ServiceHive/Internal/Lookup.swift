/// The registration a lookup found, and where.
struct Found: Sendable {
    let entry: Entry
    /// The hives searched, nearest first, up to and including the one that answered.
    let searched: Lineage
    /// The layer that declared the entry, when it is an override.
    let layer: OverrideLayer?
    /// For a registration of a hive: what its slot held at the lookup.
    let slot: Slot

    /// The hive whose registration answered.
    var owner: HiveID { searched[searched.index(before: searched.endIndex)] }
}

/// Whether the current task's override layers have been read.
enum LayerView: Sendable {
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

/// The task's override layer stack as the quick path sees it: read only when the family has live layers, or when a
/// cached instance that depends on another family's services asks for it. A reference and a flag, which copy for
/// free; a `LayerView` costs more on every resolve inside an override (benchmark `08b singleton inside an override`).
struct QuickLayers {
    private(set) var isRead: Bool
    private(set) var stack: OverrideLayer?

    @inline(__always)
    init(isRead: Bool) {
        self.isRead = isRead
        stack = isRead ? OverrideLayer.current : nil
    }

    /// The layers read so far, for the detailed path.
    var view: LayerView { isRead ? .known(stack) : .unknown }

    /// Reads the stack, if it has not been read and `dependencies` reach into another family, whose layers a lookup of
    /// this family does not otherwise read.
    @inline(__always)
    mutating func read(ifCrossing dependencies: Dependencies) {
        if !isRead, dependencies.crossesFamilies { (isRead, stack) = (true, OverrideLayer.current) }
    }
}

/// What the common case of a lookup found.
///
/// `.cached` and `.forwardedCached` hold their instance unretained, valid only while the family lock is held: the
/// quick path reads it in place and copies its value out before unlocking (`HiveCore.cachedValue` cites the
/// benchmark that shows what this saves).
enum QuickLookup: Sendable {
    case cached(Unmanaged<Instance>)
    case transient(Entry)
    /// A `.graph` registration, found at `depth` in the lineage.
    case graph(Entry, depth: Int)
    /// A forwarded registration of the asking hive, and its target's cached instance.
    case forwarded(Entry, Instance)
    /// The instance of a forwarded registration, converted from its target's and cached beside it.
    case forwardedCached(Unmanaged<Instance>)
    /// Anything else: take the detailed path, with the layers read so far.
    case detailed(LayerView)
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
    /// The resolve requires `Sendable`, and the registration found is not sure its instances are.
    case notSendable(Entry)
}

extension HiveCore {
    /// Finds the registration for `key` as this hive sees it: for each hive of its lineage, the innermost override of
    /// that hive first, then the hive's own registrations.
    func lookUp(
        _ key: RegistrationKey,
        layers: inout LayerView,
        argumentsMatch: ([Any.Type]) -> Bool
    ) -> Lookup {
        family.withLock { state in
            if case .unknown = layers, state.liveLayers > 0 { _ = layers.read() }
            return find(key, in: state, layers: layers.stack, argumentsMatch: argumentsMatch)
        }
    }

    /// The lookup itself, with the family lock held.
    func find(
        _ key: RegistrationKey,
        in state: borrowing FamilyState,
        layers: OverrideLayer?,
        argumentsMatch: ([Any.Type]) -> Bool
    ) -> Lookup {
        for index in lineage.indices {
            let id = lineage[index]
            if let layers, let (entry, layer) = layers.override(for: key, on: id, of: familyID),
                key.arguments == nil || argumentsMatch(entry.argumentTypes)
            {
                if key.requiresSendable && entry.unsureSendable { return .notSendable(entry) }
                return .found(Found(entry: entry, searched: lineage[...index], layer: layer, slot: .empty))
            }
            if let strict = layers?.strictLayer(on: id, of: familyID) { return .notOverridden(strict) }
            guard state.isLive(id) else { return .released }
            if let record = state.hives[id.index].registry[key],
                key.arguments == nil || argumentsMatch(record.entry.argumentTypes)
            {
                if key.requiresSendable && record.entry.unsureSendable { return .notSendable(record.entry) }
                return .found(Found(entry: record.entry, searched: lineage[...index], layer: nil, slot: record.slot))
            }
        }
        return .missing(missing(key, in: state, layers: layers))
    }
}
