/// The check of declared dependencies over one snapshot: unmet dependencies, cycles and captive dependencies. Runs no
/// factory and takes no lock.
struct GraphCheck {
    let snapshot: GraphSnapshot

    /// A link from a registration to what one of its parameters resolves.
    struct Link {
        let dependency: DeclaredDependency
        let target: GraphSnapshot.Node
    }

    var report: ServiceHive.CheckReport {
        var unmet: [ServiceHiveError] = []
        var unchecked: [ServiceHive.Registration] = []
        var checked = 0
        for node in snapshot.visible {
            guard let declared = node.entry.declared else {
                if node.entry.instance == nil, node.entry.target == nil, node.entry.role != .collection {
                    unchecked.append(node.entry.registration)
                }
                continue
            }
            checked += 1
            let depth = resolvingDepth(node)
            for dependency in declared where isUnmet(dependency, from: depth, shared: node.isShared) {
                unmet.append(unmetError(node, dependency))
            }
        }
        return ServiceHive.CheckReport(
            problems: unmet + cycles() + captives(), unchecked: unchecked, checked: checked)
    }

    // MARK: - Links

    /// The hive a registration's dependencies resolve from: its own for a shared instance, which never sees a child's
    /// services; the checked hive for the others, which are built for the hive that resolves them.
    func resolvingDepth(_ node: GraphSnapshot.Node) -> Int { node.isShared ? node.depth : 0 }

    /// What the parameters of `node` resolve, as resolving it from `depth` would: for a collection, each contribution.
    /// A forward links to its target.
    func links(of node: GraphSnapshot.Node, from depth: Int) -> [Link] {
        if let target = node.entry.target {
            guard let found = snapshot.find(target, from: node.depth) else { return [] }
            let forward = DeclaredDependency(
                forwardTo: target, service: node.entry.targetServiceKey ?? found.entry.serviceKey)
            return [Link(dependency: forward, target: found)]
        }
        var links: [Link] = []
        for dependency in node.entry.declared ?? [] {
            if dependency.kind == .collection {
                for contribution in snapshot.contributions(to: dependency.key, from: depth) {
                    links.append(Link(dependency: dependency, target: contribution))
                }
            } else if let target = snapshot.find(dependency.key, from: depth) {
                links.append(Link(dependency: dependency, target: target))
            }
        }
        return links
    }

    // MARK: - Unmet

    func isUnmet(_ dependency: DeclaredDependency, from depth: Int, shared: Bool) -> Bool {
        switch dependency.kind {
        case .optional:
            return false
        case .collection:
            // Never missing: without contributions, it is empty. Unless the array itself is what was registered.
            return snapshot.contributions(to: dependency.key, from: depth).isEmpty
                && snapshot.find(dependency.ownKey, from: depth) != nil
        case .required, .lazy, .provider:
            guard snapshot.find(dependency.key, from: depth) == nil else { return false }
            // What only a child provides is a captive dependency of a shared instance, and is met for the others.
            return !snapshot.isOnlyBelow(dependency.key, depth: depth)
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
        for node in snapshot.byService[dependency.key.service] ?? [] where !found.contains(node.entry.serviceKey) {
            found.append(node.entry.serviceKey)
        }
        let wanted = dependency.service.service.lowercased()
        for node in snapshot.visible where node.entry.role == .registration && node.entry.key.arguments == nil {
            let key = node.entry.serviceKey
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
        var state: [ObjectIdentifier: Bool] = [:]  // false: on the walk's path; true: done.
        var errors: [ServiceHiveError] = []
        var reported: Set<Set<ObjectIdentifier>> = []
        for start in snapshot.visible where start.entry.declared != nil || start.entry.target != nil {
            guard state[ObjectIdentifier(start.entry)] == nil else { continue }
            // Each frame: a node, how deep it resolves from, its links that are built first, and the next to follow.
            var path: [(node: GraphSnapshot.Node, links: [Link], next: Int)] = []
            func enter(_ node: GraphSnapshot.Node, from depth: Int) {
                state[ObjectIdentifier(node.entry)] = false
                path.append((node, links(of: node, from: depth).filter { $0.dependency.isBuiltFirst }, 0))
            }
            enter(start, from: resolvingDepth(start))
            while let top = path.last {
                guard top.next < top.links.count else {
                    state[ObjectIdentifier(top.node.entry)] = true
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let link = top.links[top.next]
                let id = ObjectIdentifier(link.target.entry)
                switch state[id] {
                case nil:
                    enter(link.target, from: link.target.isShared ? link.target.depth : resolvingDepth(top.node))
                case false:
                    let from = path.firstIndex { ObjectIdentifier($0.node.entry) == id } ?? 0
                    let frames = path[from...]
                    let members = Set(frames.map { ObjectIdentifier($0.node.entry) })
                    guard reported.insert(members).inserted else { continue }
                    let keys = frames.map(\.node.entry.serviceKey) + [link.target.entry.serviceKey]
                    let parameters = frames.map { $0.links[$0.next - 1].dependency.parameter }
                    errors.append(
                        .dependencyCycle(path: keys, parameters: parameters, sites: frames.map(\.node.entry.site)))
                default:
                    continue
                }
            }
        }
        return errors
    }

    // MARK: - Captive dependencies

    /// Each shared instance that would hold something shorter-lived, directly or through the transient services it
    /// holds. Keys and texts are made only for what it reports.
    func captives() -> [ServiceHiveError] {
        var errors: [ServiceHiveError] = []
        for holder in snapshot.visible where holder.isShared && holder.entry.declared != nil {
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(holder.entry)]
            // Each item: the node whose dependencies to follow, the transient nodes that lead to it from the holder,
            // and the holder's parameter that starts the way.
            var pending: [(node: GraphSnapshot.Node, through: [GraphSnapshot.Node], first: DeclaredDependency?)] = [
                (holder, [], nil)
            ]
            func path(_ through: [GraphSnapshot.Node], _ last: ServiceHive.ServiceKey) -> [ServiceHive.ServiceKey] {
                [holder.entry.serviceKey] + through.map(\.entry.serviceKey) + [last]
            }
            while let (node, through, first) = pending.popLast() {
                for dependency in node.entry.declared ?? [] where dependency.isKept && dependency.kind != .collection {
                    if snapshot.find(dependency.key, from: holder.depth) == nil,
                        snapshot.isOnlyBelow(dependency.key, depth: holder.depth)
                    {
                        errors.append(
                            captive(
                                holder, first ?? dependency, path(through, dependency.service),
                                lifetime: "child hives only"))
                    }
                }
                for link in links(of: node, from: holder.depth) where link.dependency.isKept {
                    let target = link.target
                    guard visited.insert(ObjectIdentifier(target.entry)).inserted else { continue }
                    if target.entry.lifetime != .forward,
                        let lifetime = Self.shorter(target.entry.scope, than: holder.entry.scope)
                    {
                        errors.append(
                            captive(
                                holder, first ?? link.dependency, path(through, target.entry.serviceKey),
                                lifetime: lifetime))
                    } else if !target.isShared {
                        pending.append((target, through + [target], first ?? link.dependency))
                    }
                }
            }
        }
        return errors
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
