/// The check of declared dependencies over one snapshot: unmet dependencies, cycles and captive dependencies. Runs no
/// factory and takes no lock.
///
/// It walks numbers, not keys: each declared dependency is looked up once for each depth it is resolved from, into a
/// table of links between node numbers, and the passes for cycles and captive dependencies run over arrays of
/// integers. Keys and texts are made only for what it reports. Hashing keys and building sets at each step, the check
/// of 1,000 registrations cost 24.4 million instructions; so, 2.6 million (`Benchmarks/count-instructions 30a`).
struct GraphCheck {
    let snapshot: GraphSnapshot

    /// The dependencies each node declares. Numbered in order across nodes: those of node `i` are numbers
    /// `firstDependency[i] ..< firstDependency[i + 1]`; after them, `forwardLinks`, one for each forward whose target
    /// is registered: its link to the target.
    private let declared: [[DeclaredDependency]]
    private let firstDependency: [Int]
    private let forwardLinks: [DeclaredDependency]
    /// For each dependency, how its parameter asks for it.
    private let kinds: [DeclaredDependency.Kind]
    /// The links of each node as resolving it from each depth of the lineage would see them.
    private let tables: [Links]

    /// What the parameters of every node resolve from one depth, as numbers: the links of node `i` are
    /// `targets[first[i] ..< first[i + 1]]`, each made by `through[…]`, an index into `dependencies`.
    struct Links {
        var first: [Int] = []
        var targets: [Int] = []
        var through: [Int] = []
        /// For each dependency, the node that answers it from this depth, or -1; for a collection, -1.
        var answer: [Int] = []
    }

    init(snapshot: GraphSnapshot) {
        self.snapshot = snapshot
        let nodes = snapshot.nodes
        // Each node's array as it is, not copied into one: copying each dependency into one array cost the check of
        // 1,000 registrations about 130,000 instructions (`Benchmarks/count-instructions 30a`).
        let declared = nodes.map { $0.entry.declared ?? [] }
        var firstDependency: [Int] = []
        var kinds: [DeclaredDependency.Kind] = []
        firstDependency.reserveCapacity(nodes.count + 1)
        for dependencies in declared {
            firstDependency.append(kinds.count)
            dependencies.withUnsafeBufferPointer { buffer in
                for dependency in buffer { kinds.append(dependency.kind) }
            }
        }
        firstDependency.append(kinds.count)
        // For each node that forwards to a registered target, the target, else -1.
        var forwards = [Int](repeating: -1, count: nodes.count)
        var forwardLinks: [DeclaredDependency] = []
        for (index, node) in nodes.enumerated() where snapshot.traits[index].contains(.forward) {
            guard let target = node.entry.target, let found = snapshot.find(target, from: node.depth) else {
                continue
            }
            forwardLinks.append(
                DeclaredDependency(
                    forwardTo: target, service: node.entry.targetServiceKey ?? nodes[found].entry.serviceKey))
            forwards[index] = found
            kinds.append(.required)
        }
        self.declared = declared
        self.firstDependency = firstDependency
        self.forwardLinks = forwardLinks
        self.kinds = kinds
        let depths = (snapshot.depth.max() ?? 0) + 1
        tables = (0..<depths).map { depth in
            Self.links(
                from: depth, snapshot, declared: declared, firstDependency: firstDependency, forwards: forwards,
                count: kinds.count)
        }
    }

    /// The dependency number `number`.
    private func dependency(_ number: Int) -> DeclaredDependency {
        let declaredCount = firstDependency[firstDependency.count - 1]
        guard number < declaredCount else { return forwardLinks[number - declaredCount] }
        // The last node whose first dependency is at or before `number`.
        var low = 0
        var high = firstDependency.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if firstDependency[middle] <= number { low = middle } else { high = middle }
        }
        while firstDependency[low + 1] <= number { low += 1 }
        return declared[low][number - firstDependency[low]]
    }

    var report: ServiceHive.CheckReport {
        var unmet: [ServiceHiveError] = []
        var unchecked: [ServiceHive.Registration] = []
        var checked = 0
        for index in snapshot.visible {
            guard snapshot.traits[index].contains(.declares) else {
                let entry = snapshot.nodes[index].entry
                if entry.instance == nil, entry.target == nil, entry.role != .collection {
                    unchecked.append(entry.registration)
                }
                continue
            }
            checked += 1
            let depth = resolvingDepth(index)
            let answer = tables[depth].answer
            for dependency in firstDependency[index]..<firstDependency[index + 1]
            where isUnmet(dependency, answer: answer[dependency], from: depth) {
                unmet.append(unmetError(snapshot.nodes[index], self.dependency(dependency)))
            }
        }
        return ServiceHive.CheckReport(
            problems: unmet + cycles() + captives(), unchecked: unchecked, checked: checked)
    }

    // MARK: - Links

    /// The hive a registration's dependencies resolve from: its own for a shared instance, which never sees a child's
    /// services; the checked hive for the others, which are built for the hive that resolves them.
    func resolvingDepth(_ node: Int) -> Int {
        snapshot.traits[node].contains(.shared) ? snapshot.depth[node] : 0
    }

    /// The links of every node from `depth`: what each parameter resolves, as resolving the node from `depth` would;
    /// for a collection, each contribution. A forward links to its target alone.
    private static func links(
        from depth: Int, _ snapshot: GraphSnapshot, declared: [[DeclaredDependency]], firstDependency: [Int],
        forwards: [Int], count: Int
    ) -> Links {
        var table = Links()
        // The forwards' dependencies are numbered after the declared ones, in the order of their nodes.
        var forwardNumber = firstDependency[firstDependency.count - 1]
        table.answer = Array(repeating: -1, count: count)
        table.first.reserveCapacity(snapshot.nodes.count + 1)
        table.targets.reserveCapacity(count)
        table.through.reserveCapacity(count)
        for index in snapshot.nodes.indices {
            table.first.append(table.targets.count)
            if forwards[index] >= 0 {
                table.targets.append(forwards[index])
                table.through.append(forwardNumber)
                forwardNumber += 1
            }
            // A forward links to its target alone.
            let isForward = snapshot.traits[index].contains(.forward)
            var number = firstDependency[index]
            for dependency in declared[index] {
                defer { number += 1 }
                if dependency.kind == .collection {
                    guard !isForward else { continue }
                    for contribution in snapshot.contributions(to: dependency.key, from: depth) {
                        table.targets.append(contribution)
                        table.through.append(number)
                    }
                } else if let target = snapshot.find(dependency, from: depth) {
                    table.answer[number] = target
                    guard !isForward else { continue }
                    table.targets.append(target)
                    table.through.append(number)
                }
            }
        }
        table.first.append(table.targets.count)
        return table
    }

    /// The links of every node from `depth`.
    func links(from depth: Int) -> Links { tables[depth] }

    /// The dependencies that node `index` declares, resolving it from `depth`, each with what answers it, or `nil`:
    /// for the graph that ``ServiceHive/declaredGraph`` draws.
    func declared(by index: Int, from depth: Int) -> [(DeclaredDependency, answer: Int?)] {
        let answer = links(from: depth).answer
        return (firstDependency[index]..<firstDependency[index + 1]).map { dependency in
            (self.dependency(dependency), answer[dependency] >= 0 ? answer[dependency] : nil)
        }
    }

    // MARK: - Unmet

    /// Whether dependency number `dependency`, answered by node `answer` (or -1) from `depth`, is unmet.
    func isUnmet(_ dependency: Int, answer: Int, from depth: Int) -> Bool {
        switch kinds[dependency] {
        case .optional:
            return false
        case .collection:
            let declared = self.dependency(dependency)
            // Never missing: without contributions, it is empty. Unless the array itself is what was registered.
            return snapshot.contributions(to: declared.key, from: depth).isEmpty
                && snapshot.find(declared.ownKey, from: depth) != nil
        case .required, .lazy, .provider:
            guard answer < 0 else { return false }
            // What only a child provides is a captive dependency of a shared instance, and is met for the others.
            return !snapshot.isOnlyBelow(self.dependency(dependency).key, depth: depth)
        }
    }

    func unmetError(_ node: GraphSnapshot.Node, _ dependency: DeclaredDependency) -> ServiceHiveError {
        .unmetDependency(
            node.entry.serviceKey, parameter: dependency.parameter, needs: dependency.service, site: node.entry.site,
            suggestions: dependency.kind == .collection ? [] : suggestions(for: dependency))
    }

    /// The registrations a missing dependency may have meant: the same service under another name or with runtime
    /// arguments, then services whose type name contains its name or is contained in it, or is one or two letters off.
    func suggestions(for dependency: DeclaredDependency) -> [ServiceHive.ServiceKey] {
        var found: [ServiceHive.ServiceKey] = []
        for index in snapshot.registrations(of: dependency.key.service) {
            let key = snapshot.nodes[index].entry.serviceKey
            if !found.contains(key) { found.append(key) }
        }
        let wanted = dependency.service.service.lowercased()
        for index in snapshot.visible {
            let entry = snapshot.nodes[index].entry
            guard entry.role == .registration, entry.key.arguments == nil else { continue }
            let key = entry.serviceKey
            let name = key.service.lowercased()
            guard name != wanted, !found.contains(key) else { continue }
            if name.contains(wanted) || wanted.contains(name) || Self.isClose(name, wanted) { found.append(key) }
        }
        return Array(found.prefix(3))
    }

    /// Whether two names are at most two edits apart.
    static func isClose(_ a: String, _ b: String) -> Bool {
        let a = Array(a)
        let b = Array(b)
        guard abs(a.count - b.count) <= 2, !a.isEmpty, !b.isEmpty else { return false }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count] <= 2
    }

    // MARK: - Cycles

    /// Every cycle of links that are built first, each once, found by a depth-first walk without recursion, so that
    /// a long chain of declarations cannot exhaust the stack.
    func cycles() -> [ServiceHiveError] {
        guard mayHaveCycle() else { return [] }
        let traits = snapshot.traits
        // 0: not seen; 1: on the walk's path; 2: done.
        var state = [UInt8](repeating: 0, count: traits.count)
        var errors: [ServiceHiveError] = []
        var reported: Set<Set<Int>> = []
        // Each frame: a node, the depth its links are read from, the next of them to look at, and the last followed.
        var path: [(node: Int, depth: Int, next: Int, followed: Int)] = []
        for start in snapshot.visible where !traits[start].isDisjoint(with: [.declares, .forward]) {
            guard state[start] == 0 else { continue }
            let startDepth = resolvingDepth(start)
            state[start] = 1
            path.append((start, startDepth, tables[startDepth].first[start], -1))
            var table = tables[startDepth]
            var tableDepth = startDepth
            while let top = path.last {
                if top.depth != tableDepth {
                    table = tables[top.depth]
                    tableDepth = top.depth
                }
                var next = top.next
                let end = table.first[top.node + 1]
                while next < end, !Self.isBuiltFirst(kinds[table.through[next]]) { next += 1 }
                guard next < end else {
                    state[top.node] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next = next + 1
                path[path.count - 1].followed = next
                let target = table.targets[next]
                switch state[target] {
                case 0:
                    let depth = traits[target].contains(.shared) ? snapshot.depth[target] : resolvingDepth(top.node)
                    state[target] = 1
                    path.append((target, depth, tables[depth].first[target], -1))
                case 1:
                    let from = path.firstIndex { $0.node == target } ?? 0
                    let frames = path[from...]
                    guard reported.insert(Set(frames.map(\.node))).inserted else { continue }
                    let nodes = snapshot.nodes
                    let keys = frames.map { nodes[$0.node].entry.serviceKey } + [nodes[target].entry.serviceKey]
                    let parameters = frames.map { dependency(tables[$0.depth].through[$0.followed]).parameter }
                    errors.append(
                        .dependencyCycle(
                            path: keys, parameters: parameters, sites: frames.map { nodes[$0.node].entry.site }))
                default:
                    continue
                }
            }
        }
        return errors
    }

    /// Whether the links that are built first, from every depth at once, form a cycle: the walk of `cycles()` follows
    /// some of them, so without one it finds none. Nodes are taken off, as in a topological sort, once nothing that
    /// remains links to them; a cycle is what remains. In integers only: the walk, which most graphs need not take,
    /// cost the check of 1,000 registrations about 300,000 instructions (`Benchmarks/count-instructions 30a`).
    private func mayHaveCycle() -> Bool {
        let count = snapshot.traits.count
        let kinds = kinds
        var incoming = [Int](repeating: 0, count: count)
        var free: [Int] = []
        var removed = 0
        // Over the tables' own links, written through buffers (through its subscript, an array checks at each step
        // that it is not shared): the check counted 2.56 million instructions so, 2.66 million with a list of links
        // of its own and arrays (`Benchmarks/count-instructions 30a`).
        incoming.withUnsafeMutableBufferPointer { incoming in
            tables.withUnsafeBufferPointer { tables in
                for table in tables.indices {
                    for link in tables[table].targets.indices
                    where Self.isBuiltFirst(kinds[tables[table].through[link]]) {
                        incoming[tables[table].targets[link]] += 1
                    }
                }
                for node in 0..<count where incoming[node] == 0 { free.append(node) }
                while let node = free.popLast() {
                    removed += 1
                    for table in tables.indices {
                        for link in tables[table].first[node]..<tables[table].first[node + 1]
                        where Self.isBuiltFirst(kinds[tables[table].through[link]]) {
                            let target = tables[table].targets[link]
                            incoming[target] -= 1
                            if incoming[target] == 0 { free.append(target) }
                        }
                    }
                }
            }
        }
        return removed < count
    }

    /// Whether building a registration builds a dependency of this kind first: `DeclaredDependency.isBuiltFirst`.
    static func isBuiltFirst(_ kind: DeclaredDependency.Kind) -> Bool {
        kind == .required || kind == .optional || kind == .collection
    }

    // MARK: - Captive dependencies

    /// Each shared instance that would hold something shorter-lived, directly or through the transient services it
    /// holds. Keys and texts are made only for what it reports.
    func captives() -> [ServiceHiveError] {
        let traits = snapshot.traits
        var errors: [ServiceHiveError] = []
        // The holder whose walk last reached each node, by its number plus one: a node is visited once per holder.
        var visited = [Int](repeating: 0, count: traits.count)
        // The walk of one holder: each step, a node whose dependencies to follow, the step that led to it (-1 for the
        // holder's own), and the dependency of the holder that starts the way (-1 for the holder's own step).
        var steps: [(node: Int, from: Int, first: Int)] = []
        var pending: [Int] = []
        var table = tables[0]
        var tableDepth = 0
        var suspects: [[Bool]?] = Array(repeating: nil, count: tables.count)
        for holder in snapshot.visible where traits[holder].isSuperset(of: [.shared, .declares]) {
            let holderDepth = snapshot.depth[holder]
            if holderDepth != tableDepth {
                table = tables[holderDepth]
                tableDepth = holderDepth
            }
            if suspects[holderDepth] == nil { suspects[holderDepth] = mayHoldCaptive(from: holderDepth) }
            guard suspects[holderDepth]?[holder] == true else { continue }
            visited[holder] = holder + 1
            steps.removeAll(keepingCapacity: true)
            steps.append((holder, -1, -1))
            pending.removeAll(keepingCapacity: true)
            pending.append(0)
            while let step = pending.popLast() {
                let (node, _, first) = steps[step]
                for dependency in firstDependency[node]..<firstDependency[node + 1] {
                    let kind = kinds[dependency]
                    guard kind != .provider, kind != .collection, table.answer[dependency] < 0,
                        snapshot.isOnlyBelow(self.dependency(dependency).key, depth: holderDepth)
                    else { continue }
                    errors.append(
                        captive(
                            holder, first >= 0 ? first : dependency, path(holder, steps, to: step),
                            self.dependency(dependency).service, lifetime: "child hives only"))
                }
                for link in table.first[node]..<table.first[node + 1] {
                    let through = table.through[link]
                    // A provider resolves again on every use: the holder keeps no instance through it.
                    guard kinds[through] != .provider else { continue }
                    let target = table.targets[link]
                    guard visited[target] != holder + 1 else { continue }
                    visited[target] = holder + 1
                    let targetTraits = traits[target]
                    if targetTraits.contains(.shortLived), snapshot.nodes[target].entry.lifetime != .forward,
                        let lifetime = Self.shorter(
                            snapshot.nodes[target].entry.scope, than: snapshot.nodes[holder].entry.scope)
                    {
                        errors.append(
                            captive(
                                holder, first >= 0 ? first : through, path(holder, steps, to: step),
                                snapshot.nodes[target].entry.serviceKey, lifetime: lifetime))
                    } else if !targetTraits.contains(.shared) {
                        steps.append((target, step, first >= 0 ? first : through))
                        pending.append(steps.count - 1)
                    }
                }
            }
        }
        return errors
    }

    /// For each node, whether the walk of `captives()` from it, for a holder at `depth`, may find something: whether
    /// it, or a node its kept links reach through services that are not shared, has a kept dependency that only a
    /// child provides, or keeps a `.weak` or named-scope service. Found backwards from those nodes, in integers only:
    /// walking from each holder, the check of 1,000 registrations cost about 800,000 instructions
    /// (`Benchmarks/count-instructions 30a`).
    private func mayHoldCaptive(from depth: Int) -> [Bool] {
        let traits = snapshot.traits
        let count = traits.count
        let table = tables[depth]
        let kinds = kinds
        var suspect = [Bool](repeating: false, count: count)
        var found: [Int] = []
        // The kept links that the walk follows into a node that is not shared, by the node they enter:
        // `sources[firstInto[i] ..< firstInto[i + 1]]` lead into node `i`.
        var firstInto = [Int](repeating: 0, count: count + 1)
        for node in 0..<count {
            var isSuspect = false
            for dependency in firstDependency[node]..<firstDependency[node + 1] {
                let kind = kinds[dependency]
                if kind != .provider, kind != .collection, table.answer[dependency] < 0,
                    snapshot.isOnlyBelow(self.dependency(dependency).key, depth: depth)
                {
                    isSuspect = true
                }
            }
            for link in table.first[node]..<table.first[node + 1] where kinds[table.through[link]] != .provider {
                let target = table.targets[link]
                if traits[target].contains(.shortLived) {
                    isSuspect = true
                } else if !traits[target].contains(.shared) {
                    firstInto[target + 1] += 1
                }
            }
            if isSuspect {
                suspect[node] = true
                found.append(node)
            }
        }
        guard !found.isEmpty else { return suspect }
        for node in 0..<count { firstInto[node + 1] += firstInto[node] }
        var sources = [Int](repeating: 0, count: firstInto[count])
        var next = firstInto
        for node in 0..<count {
            for link in table.first[node]..<table.first[node + 1] where kinds[table.through[link]] != .provider {
                let target = table.targets[link]
                if !traits[target].contains(.shortLived), !traits[target].contains(.shared) {
                    sources[next[target]] = node
                    next[target] += 1
                }
            }
        }
        while let node = found.popLast() {
            for source in sources[firstInto[node]..<firstInto[node + 1]] where !suspect[source] {
                suspect[source] = true
                found.append(source)
            }
        }
        return suspect
    }

    /// The transient nodes that lead from the holder to `step`, the holder's walk being `steps`.
    private func path(_ holder: Int, _ steps: [(node: Int, from: Int, first: Int)], to step: Int) -> [Int] {
        var through: [Int] = []
        var current = step
        while steps[current].from >= 0 {
            through.append(steps[current].node)
            current = steps[current].from
        }
        return through.reversed()
    }

    /// A captive dependency of `holder` through its dependency number `parameter`, along `through` to `last`.
    private func captive(
        _ holder: Int, _ parameter: Int, _ through: [Int], _ last: ServiceHive.ServiceKey, lifetime: String
    ) -> ServiceHiveError {
        let entry = snapshot.nodes[holder].entry
        let path = [entry.serviceKey] + through.map { snapshot.nodes[$0].entry.serviceKey } + [last]
        return captive(snapshot.nodes[holder], dependency(parameter), path, lifetime: lifetime)
    }

    func captive(
        _ holder: GraphSnapshot.Node, _ parameter: DeclaredDependency, _ path: [ServiceHive.ServiceKey],
        lifetime: String
    ) -> ServiceHiveError {
        .captiveDependency(
            holder.entry.serviceKey, scope: holder.entry.scope, parameter: parameter.parameter, path: path,
            lifetime: lifetime, site: holder.entry.site)
    }

    /// How `scope` lives, when it is shorter than `holder`'s, a shared scope: `.weak` and named scopes live shorter
    /// than any other shared scope; a singleton lives as long as any. `nil` when it is not shorter, or not shared.
    static func shorter(_ scope: ServiceHive.Scope, than holder: ServiceHive.Scope) -> String? {
        guard scope != holder else { return nil }
        switch scope.kind {
        case .weak, .named: return scope.description
        case .singleton, .transient, .graph: return nil
        }
    }
}
