/// What resolving from one hive needs: its family's state and its place in the family. The hive and every resolver
/// of it share one core.
///
/// Resolvers keep the core, not the hive, so that an instance that keeps its resolver does not keep its hive alive;
/// when the hive goes, its registrations leave the family's state, and the core finds them gone.
final class HiveCore: Sendable {
    let family: Locked<HiveFamily>
    /// This hive and its ancestors, nearest first.
    let lineage: Lineage
    /// What a resolve reads of this hive without the lock (`CachedReads.swift`); an ancestor's is its core's.
    /// Unretained: it is held by the hive's place in the family state, which this core holds, and never replaced.
    /// Retained, reading it cost each cached resolve a retain and a release (`Benchmarks/count-instructions 02`).
    let reads: Unmanaged<HiveReads>
    let parent: HiveCore?

    /// Adds a hive to `family`, below `parent`, and runs `setUp` on the family's state with the new hive's identity,
    /// in the same acquisition of the lock.
    init(
        family: Locked<HiveFamily>, parent: HiveCore?, setUp: (inout HiveFamily, HiveID) -> Void = { _, _ in }
    ) {
        self.family = family
        self.parent = parent
        var lineage: [HiveID] = []
        lineage.reserveCapacity(1 + (parent?.lineage.count ?? 0))
        let (id, reads) = family.withLock { state in
            let id = state.addHive()
            setUp(&state, id)
            return (id, state.hives[id.index].registry.unmanagedReads)
        }
        lineage.append(id)
        lineage += parent?.lineage ?? []
        self.lineage = lineage[...]
        self.reads = reads
    }

    /// This hive's identity in its family.
    var id: HiveID { lineage[lineage.startIndex] }

    /// The identity of the hive family.
    var familyID: ObjectIdentifier { ObjectIdentifier(family) }

    /// The core of the hive at `depth` in the lineage; 0 is this hive.
    func ancestor(_ depth: Int) -> HiveCore {
        var core = self
        for _ in 0..<depth { core = core.parent.unsafelyUnwrapped }  // Safe: `lineage` has one hive per core.
        return core
    }
}
