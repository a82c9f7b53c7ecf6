import Synchronization

/// What resolving from one hive needs: its family's state and its place in the family. The hive and every resolver
/// of it share one core.
///
/// Resolvers keep the core, not the hive, so that an instance that keeps its resolver does not keep its hive alive;
/// when the hive goes, its registrations leave the family's state, and the core finds them gone.
final class HiveCore: Sendable {
    /// The family's state and its lock, as they are: `family` is the way in for everything but a resolve.
    let sharedFamily: Locked<HiveFamily>
    /// This hive and its ancestors, nearest first.
    let lineage: Lineage
    /// What a resolve reads of this hive without the lock (`CachedReads.swift`); an ancestor's is its core's.
    /// Unretained: it is held by the hive's place in the family state, which this core holds, and never replaced.
    /// Retained, reading it cost each cached resolve a retain and a release (`Benchmarks/count-instructions 02`).
    let reads: Unmanaged<HiveReads>
    let parent: HiveCore?
    /// Whether this hive was made by `ServiceHive.child(_:)` with instances, which the family's state keeps apart
    /// from its registry until they move into it (`Provision.swift`).
    let hasProvisions: Bool
    /// Whether this hive keeps no provisions apart, or may no longer: none were given, they have moved into the
    /// registry, or the hive is released. Written with the family lock held; read without it by `family`, which takes
    /// the lock to move them only while it is `false`.
    let providedMoved: Atomic<Bool>

    /// Adds a hive to `family`, below `parent`, with the instances `provided`, in one acquisition of the lock
    /// (`Benchmarks/count-instructions 12`).
    init(family: Locked<HiveFamily>, parent: HiveCore?, provided: [Provision] = []) {
        self.sharedFamily = family
        self.parent = parent
        hasProvisions = !provided.isEmpty
        providedMoved = Atomic(provided.isEmpty)
        var lineage: [HiveID] = []
        lineage.reserveCapacity(1 + (parent?.lineage.count ?? 0))
        let (id, reads) = family.withLock { state in
            let id = state.addHive()
            let reads = state.hives[id.index].registry.unmanagedReads
            if !provided.isEmpty { state.keep(provided, for: id, reads: reads) }
            return (id, reads)
        }
        lineage.append(id)
        lineage += parent?.lineage ?? []
        self.lineage = lineage[...]
        self.reads = reads
    }

    /// The family's state and its lock, for anything but a resolve, which reads `sharedFamily`: a child's provisions
    /// move into its registry first, where everything else reads them (`Provision.swift`). Never read with the lock
    /// held while this hive keeps its provisions apart, which it would take.
    var family: Locked<HiveFamily> {
        if !providedMoved.load(ordering: .acquiring) { sharedFamily.withLock { moveProvisions(in: &$0) } }
        return sharedFamily
    }

    /// This hive's identity in its family.
    var id: HiveID { lineage[lineage.startIndex] }

    /// The identity of the hive family.
    var familyID: ObjectIdentifier { ObjectIdentifier(sharedFamily) }

    /// The core of the hive at `depth` in the lineage; 0 is this hive.
    func ancestor(_ depth: Int) -> HiveCore {
        var core = self
        for _ in 0..<depth { core = core.parent.unsafelyUnwrapped }  // Safe: `lineage` has one hive per core.
        return core
    }
}
