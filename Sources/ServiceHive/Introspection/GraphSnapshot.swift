/// What ``ServiceHive/check()`` reads of a hive family, copied under its lock in one go, so that the check sees one
/// consistent state and runs without holding the lock.
///
/// Every registration of the lineage is a node, numbered by its place in ``nodes``, and what the check asks of a node
/// it reads from arrays of plain values by that number. Each key is hashed once here, and once for each dependency
/// that names it.
struct GraphSnapshot {
    /// A registration, and the depth of its hive in the checked hive's lineage: 0 is the checked hive.
    struct Node {
        let entry: Entry
        let depth: Int
        /// Whether its instance is shared, so that it holds its dependencies for as long as it is cached.
        var isShared: Bool { entry.lifetime == .shared || entry.lifetime == .weak }
    }

    /// Every registration of the lineage: the checked hive's first, then each ancestor's, each hive's in the order
    /// they were made.
    private(set) var nodes: [Node] = []
    /// The nodes the checked hive resolves: its own, then each ancestor's that none nearer shadows.
    private(set) var visible: [Int] = []
    /// For each node, the depth of its hive.
    private(set) var depth: [Int] = []
    /// For each node, what the check asks of it, read without touching its entry.
    private(set) var traits: [Traits] = []
    /// The services that child hives of the family provide.
    private(set) var providedByChildren: Set<ObjectIdentifier> = []

    /// What the check asks of a node.
    struct Traits: OptionSet {
        let rawValue: UInt8
        /// A registration: what a resolve of its key finds. Not a contribution, nor a collection's marker.
        static let registration = Traits(rawValue: 1)
        /// Its instance is shared (`.singleton`, a named scope, `.weak`), and holds its dependencies while cached.
        static let shared = Traits(rawValue: 2)
        /// Its scope is `.weak` or a named scope, which lives shorter than other shared scopes.
        static let shortLived = Traits(rawValue: 4)
        /// It forwards to another registration.
        static let forward = Traits(rawValue: 8)
        /// It declares its dependencies.
        static let declares = Traits(rawValue: 16)
    }

    /// The nearest node of each key, whatever its role; the next of each, farther, is in `nextOfKey`.
    private var nearest = KeyTable()
    /// For each node, the next node with the same key, farther in the lineage, or -1.
    private var nextOfKey: [Int] = []
    /// The first contribution to each collection, by the collection's service; the next of each in `nextContribution`.
    private var firstContribution: [ObjectIdentifier: Int] = [:]
    /// For each contribution, the next contribution to the same collection, in order, root hive last; or -1.
    private var nextContribution: [Int] = []

    init(of core: HiveCore) {
        let lineage = core.lineage
        // Each hive's entries and their order, not its records, which hold the cached instances too.
        let copied: ([(entries: [Entry], sequences: [UInt64])], Set<ObjectIdentifier>) = core.family.withLock { state in
            var provided: Set<ObjectIdentifier> = []
            state.providedByChildren.forEachKey { provided.insert($0) }
            let hives = lineage.map { id in
                var entries: [Entry] = []
                var sequences: [UInt64] = []
                state.hives[id.index].registry.services.forEach { registrations in
                    if let plain = registrations.plain {
                        entries.append(plain.entry)
                        sequences.append(plain.sequence)
                    }
                    for variant in registrations.variants {
                        entries.append(variant.entry)
                        sequences.append(variant.sequence)
                    }
                }
                return (entries, sequences)
            }
            return (hives, provided)
        }
        providedByChildren = copied.1
        nodes.reserveCapacity(copied.0.reduce(0) { $0 + $1.entries.count })
        for (depth, hive) in copied.0.enumerated() {
            // Sorted as plain numbers: sorting the entries themselves moved references about, and cost the check of
            // 1,000 registrations about 130,000 instructions (`Benchmarks/count-instructions 30a`).
            let order = hive.sequences.indices.sorted { hive.sequences[$0] < hive.sequences[$1] }
            for position in order { nodes.append(Node(entry: hive.entries[position], depth: depth)) }
        }
        depth.reserveCapacity(nodes.count)
        traits.reserveCapacity(nodes.count)
        for node in nodes {
            let entry = node.entry
            var traits: Traits = []
            if entry.role == .registration, !entry.isContribution { traits.insert(.registration) }
            if node.isShared { traits.insert(.shared) }
            switch entry.scope.kind {
            case .weak, .named: traits.insert(.shortLived)
            case .singleton, .transient, .graph: break
            }
            if entry.target != nil { traits.insert(.forward) }
            if entry.declared != nil { traits.insert(.declares) }
            depth.append(node.depth)
            self.traits.append(traits)
        }
        // Backwards, so that each key's chain, and each collection's, runs forwards; a node that a nearer one of the
        // same key shadows is marked as it is linked.
        nextOfKey = Array(repeating: -1, count: nodes.count)
        nextContribution = Array(repeating: -1, count: nodes.count)
        var shadowed = Array(repeating: false, count: nodes.count)
        nearest = KeyTable(keys: nodes.map(\.entry.key))
        for index in nodes.indices.reversed() {
            if let farther = nearest.insert(index) {
                nextOfKey[index] = farther
                shadowed[farther] = true
            }
            let entry = nodes[index].entry
            if entry.isContribution {
                nextContribution[index] = firstContribution.updateValue(index, forKey: entry.key.service) ?? -1
            }
        }
        visible = nodes.indices.filter { !shadowed[$0] }
    }

    /// Where a resolve from the hive at `depth` finds `key`: the nearest registration at that depth or above.
    func find(_ key: RegistrationKey, from depth: Int) -> Int? {
        find(key, hash: KeyTable.hash(key), from: depth)
    }

    /// Where a resolve from the hive at `depth` finds `dependency`, whose key's hash it made once.
    func find(_ dependency: DeclaredDependency, from depth: Int) -> Int? {
        find(dependency.key, hash: dependency.keyHash, from: depth)
    }

    private func find(_ key: RegistrationKey, hash: Int, from depth: Int) -> Int? {
        var index = nearest[key, hash: hash] ?? -1
        while index >= 0 {
            if traits[index].contains(.registration), self.depth[index] >= depth { return index }
            index = nextOfKey[index]
        }
        return nil
    }

    /// Whether only hives nearer than `depth`, or child hives, provide `key`: a resolve from `depth` cannot see it.
    func isOnlyBelow(_ key: RegistrationKey, depth: Int) -> Bool {
        var index = nearest[key, hash: KeyTable.hash(key)] ?? -1
        while index >= 0 {
            if traits[index].contains(.registration), self.depth[index] < depth { return true }
            index = nextOfKey[index]
        }
        return providedByChildren.contains(key.service)
    }

    /// The contributions a resolve of the collection `key` from the hive at `depth` gathers, in order.
    func contributions(to key: RegistrationKey, from depth: Int) -> [Int] {
        var found: [Int] = []
        var index = firstContribution[key.service] ?? -1
        while index >= 0 {
            if self.depth[index] >= depth { found.append(index) }
            index = nextContribution[index]
        }
        return found
    }

    /// The registrations of `service` in the lineage, whatever their names and arguments, nearest first: for the
    /// suggestions of an error.
    func registrations(of service: ObjectIdentifier) -> [Int] {
        nodes.indices.filter { traits[$0].contains(.registration) && nodes[$0].entry.key.service == service }
    }
}

/// A table from keys to node numbers, for the check alone: open addressing, linear probing, and a hash of the key's
/// service and the bytes of its name. Hashed as a `Dictionary` hashes it, with `Hasher`, a key with a name cost the
/// check about 1,500 instructions to insert, and the check of 1,000 registrations spent a third of its instructions
/// hashing (`Benchmarks/count-instructions 30a`).
struct KeyTable {
    /// For each slot, the number of the node whose key is there, or -1.
    private var slots: [Int] = []
    /// The key of each node, by its number.
    private var keys: [RegistrationKey] = []
    private var mask = 0

    init() {}

    /// A table for `keys`, the key of each node by its number, that holds none of them yet; at most half full.
    init(keys: [RegistrationKey]) {
        var size = 8
        while size < keys.count * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        self.keys = keys
        mask = size - 1
    }

    /// The hash of `key` in any table: of its service, and of the bytes of its name, read in place.
    static func hash(_ key: RegistrationKey) -> Int {
        var hash = UInt64(UInt(bitPattern: key.service)) &* 0x9E37_79B9_7F4A_7C15
        if var name = key.name {
            hash = name.withUTF8 { bytes in
                var hash = hash
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                return hash
            }
        }
        if let arguments = key.arguments { hash = (hash ^ arguments.fingerprint) &* 0x9E37_79B9_7F4A_7C15 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// The slot of `key`, whose hash is `hash`, or of the empty place where it would go.
    private func slot(of key: RegistrationKey, hash: Int) -> Int {
        var slot = hash & mask
        while slots[slot] >= 0, keys[slots[slot]] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// The number of the node `key`, whose hash is `hash` (`KeyTable.hash(_:)`), was last set to, or `nil`.
    subscript(key: RegistrationKey, hash hash: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        let node = slots[slot(of: key, hash: hash)]
        return node >= 0 ? node : nil
    }

    /// Makes node number `node` the one its key finds, and returns the number the key found before, if any.
    mutating func insert(_ node: Int) -> Int? {
        let key = keys[node]
        let slot = slot(of: key, hash: Self.hash(key))
        let old = slots[slot]
        slots[slot] = node
        return old >= 0 ? old : nil
    }
}
