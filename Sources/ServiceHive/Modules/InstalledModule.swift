/// A module of an install, or an installed one, with what it declared: read once, so that ordering it, its errors and
/// introspection never call into the module again, and never under a lock.
struct InstalledModule: Sendable {
    let module: any ServiceModule
    let name: String
    let priority: Int
    /// What it needs and provides, as declared, without repeats.
    let needs: [ServiceHive.ServiceReference]
    let provides: [ServiceHive.ServiceReference]
    /// Its place in the order modules were given and installed in, unique in the process: on ties, the lower goes
    /// first.
    let sequence: Int
    /// The sequences of the modules that provide what it needs, of its own install or installed in the same hive
    /// before it: it goes after each of them that is still installed.
    var after: [Int] = []

    init(_ module: any ServiceModule, sequence: Int) {
        self.module = module
        name = module.name
        priority = module.priority
        needs = Self.unique(module.needs)
        provides = Self.unique(module.provides)
        self.sequence = sequence
    }

    /// Guards, and only guards, the next sequence to hand out.
    private static let nextSequence = Locked(0)

    /// `count` sequences, each above every one handed out before.
    static func takeSequences(_ count: Int) -> Range<Int> {
        nextSequence.withLock { next in
            defer { next += count }
            return next..<next + count
        }
    }

    private static func unique(_ references: [ServiceHive.ServiceReference]) -> [ServiceHive.ServiceReference] {
        var seen: Set<ServiceHive.ServiceReference> = []
        return references.filter { seen.insert($0).inserted }
    }

    // MARK: - Ordering

    /// The modules in the order they install: each after the modules it comes after that are among them; among the
    /// modules free to go, the higher priority first, then the lower sequence. Without declarations, that is the
    /// modules sorted by priority, highest first, stably.
    ///
    /// - Returns: The modules in order, and the ones left over, which wait on each other in a cycle.
    static func startupOrder(_ modules: [InstalledModule]) -> (ordered: [InstalledModule], stuck: [InstalledModule]) {
        let present = Set(modules.map(\.sequence))
        var placed: Set<Int> = []
        var waiting = modules.sorted(by: startsBefore)  // so that the first one free to go is the one to go
        var ordered: [InstalledModule] = []
        ordered.reserveCapacity(modules.count)
        while let next = waiting.firstIndex(where: {
            $0.after.allSatisfy { placed.contains($0) || !present.contains($0) }
        }) {
            let module = waiting.remove(at: next)
            placed.insert(module.sequence)
            ordered.append(module)
        }
        return (ordered, waiting)
    }

    private static func startsBefore(_ lhs: Self, _ rhs: Self) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
    }

    /// The error for `stuck`, modules that each wait on another of them: the cycle reached from the one given first,
    /// starting from its earliest module.
    static func cycleError(among stuck: [InstalledModule]) -> ServiceHiveError {
        let bySequence = Dictionary(uniqueKeysWithValues: stuck.map { ($0.sequence, $0) })
        guard var current = stuck.min(by: { $0.sequence < $1.sequence }) else {
            preconditionFailure("a cycle has modules")
        }
        var path: [InstalledModule] = []
        while !path.contains(where: { $0.sequence == current.sequence }) {
            path.append(current)
            // Each module left over waits on another one left over; otherwise it would have been free to go.
            guard let next = current.after.compactMap({ bySequence[$0] }).min(by: { $0.sequence < $1.sequence }) else {
                preconditionFailure("a module left over waits on another one left over")
            }
            current = next
        }
        var cycle = Array(path.drop { $0.sequence != current.sequence })
        if let earliest = cycle.indices.min(by: { cycle[$0].sequence < cycle[$1].sequence }) {
            cycle = Array(cycle[earliest...] + cycle[..<earliest])
        }
        let links = cycle.indices.map { (cycle[$0], cycle[($0 + 1) % cycle.count]) }
        return .moduleCycle(
            modules: (cycle + cycle.prefix(1)).map(\.name),
            services: links.map { needing, providing in
                (needing.needs.first { providing.provides.contains($0) } ?? needing.needs[0]).key
            })
    }

    // MARK: - Explaining a miss

    /// The names of the modules installed in the hives of `lineage` that need the registration of `key`, for the
    /// error of a resolve that misses it. Called with the family lock held.
    static func needing(_ key: RegistrationKey, in lineage: Lineage, of modules: [HiveID: [InstalledModule]])
        -> [String]
    {
        var names: [String] = []
        for id in lineage {
            for module in modules[id] ?? [] where module.needs.contains(where: { $0.matches(key) }) {
                if !names.contains(module.name) { names.append(module.name) }
            }
        }
        return names
    }
}
