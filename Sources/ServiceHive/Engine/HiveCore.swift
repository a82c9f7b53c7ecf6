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
    /// The instances given to a child made by `ServiceHive.child(_:)`, kept here until they move into its registry
    /// (`Provision.swift`); empty for any other hive.
    let provided: [Provision]
    /// Whether `provided` has moved into the registry, or never will, since the hive is released. Written with the
    /// family lock held; read with it, or without it by `family`, which takes the lock to move them.
    let providedMoved = Atomic<Bool>(false)
    /// The place in the family's registration order of the first of `provided`, kept for them when the hive was made.
    let firstProvidedSequence: UInt64

    /// Adds a hive to `family`, below `parent`, with the instances `provided`, in one acquisition of the lock
    /// (`Benchmarks/count-instructions 12`).
    init(family: Locked<HiveFamily>, parent: HiveCore?, provided: [Provision] = []) {
        self.sharedFamily = family
        self.parent = parent
        self.provided = provided
        var lineage: [HiveID] = []
        lineage.reserveCapacity(1 + (parent?.lineage.count ?? 0))
        let (id, reads, sequence) = family.withLock { state in
            let id = state.addHive()
            let reads = state.hives[id.index].registry.unmanagedReads
            let sequence = state.nextSequence + 1
            for provision in provided {
                // A thread's answer for the service, found in the root, no longer holds from this hive.
                reads._withUnsafeGuaranteedRef { $0.registers(provision.key.service) }
                state.providedByChildren.update(provision.key.service, empty: { true }) { _ in }
                _ = state.takeSequence()
            }
            return (id, reads, sequence)
        }
        lineage.append(id)
        lineage += parent?.lineage ?? []
        self.lineage = lineage[...]
        self.reads = reads
        firstProvidedSequence = sequence
    }

    /// The family's state and its lock, for anything but a resolve, which reads `sharedFamily`: a child's provisions
    /// move into its registry first, where everything else reads them (`Provision.swift`). Never read with the lock
    /// held while this hive keeps its provisions, which it would take.
    var family: Locked<HiveFamily> {
        if !provided.isEmpty, !providedMoved.load(ordering: .acquiring) {
            sharedFamily.withLock { moveProvisions(in: &$0) }
        }
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
