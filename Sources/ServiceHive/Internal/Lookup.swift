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

/// What the common case of a lookup found.
enum QuickLookup: Sendable {
    case cached(Instance)
    case transient(Entry)
    /// A `.graph` registration, found at `depth` in the lineage.
    case graph(Entry, depth: Int)
    /// A forwarded registration of the asking hive, and its target's cached instance.
    case forwarded(Entry, Instance)
    /// The instance of a forwarded registration, converted from its target's and cached beside it.
    case forwardedCached(Instance)
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
