/// What resolving from one hive needs: its family's state and its place in the family. The hive and every resolver
/// of it share one core.
///
/// Resolvers keep the core, not the hive, so that an instance that keeps its resolver does not keep its hive alive;
/// when the hive goes, its registrations leave the family's state, and the core finds them gone.
final class HiveCore: Sendable {
    let family: Locked<FamilyState>
    /// This hive and its ancestors, nearest first.
    let lineage: Lineage
    let parent: HiveCore?

    init(family: Locked<FamilyState>, parent: HiveCore?) {
        self.family = family
        self.parent = parent
        var lineage: [HiveID] = []
        lineage.reserveCapacity(1 + (parent?.lineage.count ?? 0))
        lineage.append(family.withLock { $0.addHive() })
        lineage += parent?.lineage ?? []
        self.lineage = lineage[...]
    }

    /// This hive's identity in its family.
    var id: HiveID { lineage[lineage.startIndex] }

    /// The identity of the hive family.
    var familyID: ObjectIdentifier { ObjectIdentifier(family) }

    /// The core of the ancestor `generations` up; 0 is this hive.
    func ancestor(_ generations: Int) -> HiveCore {
        var core = self
        for _ in 0..<generations { core = core.parent! }
        return core
    }
}
