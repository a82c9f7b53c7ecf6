/// What ``ServiceHive/check()`` reads of a hive family, copied under its lock in one go, so that the check sees one
/// consistent state and runs without holding the lock.
struct GraphSnapshot {
    /// A registration, and the depth of its hive in the checked hive's lineage: 0 is the checked hive.
    struct Node {
        let entry: Entry
        let depth: Int
        /// Whether its instance is shared, so that it holds its dependencies for as long as it is cached.
        var isShared: Bool { entry.lifetime == .shared || entry.lifetime == .weak }
    }

    /// The registrations the checked hive resolves: its own, then each ancestor's that none nearer shadows.
    var visible: [Node] = []
    /// Every registration of the lineage by key, nearest hive first, shadowed ones included: an ancestor's shared
    /// instance resolves from its own hive.
    var byKey: [RegistrationKey: [Node]] = [:]
    /// The contributions of the lineage by the service of their collection, root hive last, each in order.
    var contributions: [ObjectIdentifier: [Node]] = [:]
    /// The registrations of the lineage by service, for suggestions.
    var byService: [ObjectIdentifier: [Node]] = [:]
    /// The services that child hives of the family provide.
    var providedByChildren: Set<ObjectIdentifier> = []

    init(of core: HiveCore) {
        let lineage = core.lineage
        let copied: ([[Record]], Set<ObjectIdentifier>) = core.family.withLock { state in
            var provided: Set<ObjectIdentifier> = []
            state.providedByChildren.forEachKey { provided.insert($0) }
            return (lineage.map { state.hives[$0.index].registry.records }, provided)
        }
        providedByChildren = copied.1
        var seen: Set<RegistrationKey> = []
        for (depth, records) in copied.0.enumerated() {
            for record in records.sorted(by: { $0.sequence < $1.sequence }) {
                let node = Node(entry: record.entry, depth: depth)
                if record.entry.isContribution {
                    contributions[record.entry.key.service, default: []].append(node)
                } else if record.entry.role == .registration {
                    byKey[record.entry.key, default: []].append(node)
                    byService[record.entry.key.service, default: []].append(node)
                }
                if seen.insert(record.entry.key).inserted { visible.append(node) }
            }
        }
    }

    /// Where a resolve from the hive at `depth` finds `key`: the nearest registration at that depth or above.
    func find(_ key: RegistrationKey, from depth: Int) -> Node? {
        byKey[key]?.first { $0.depth >= depth }
    }

    /// Whether only hives nearer than `depth`, or child hives, provide `key`: a resolve from `depth` cannot see it.
    func isOnlyBelow(_ key: RegistrationKey, depth: Int) -> Bool {
        byKey[key]?.contains { $0.depth < depth } == true || providedByChildren.contains(key.service)
    }

    /// The contributions a resolve of the collection `key` from the hive at `depth` gathers.
    func contributions(to key: RegistrationKey, from depth: Int) -> [Node] {
        contributions[key.service]?.filter { $0.depth >= depth } ?? []
    }
}
