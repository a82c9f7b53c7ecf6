extension ServiceHive {
    /// The dependency graph that registrations declare, drawn without building anything.
    ///
    /// ```swift
    /// print(hive.declaredGraph.mermaid)
    /// ```
    ///
    /// Each registration this hive can resolve is a node, and each dependency that a registration by initializer, or
    /// a closure with `dependsOn:`, declares is a link: to the registration that would answer it, to each contribution
    /// of a collection, or to a node drawn as not registered. The links of a cycle are red, as in the graph of
    /// ``validate(_:)``. A closure without `dependsOn:` has no links: only ``validate(_:)``, which builds it, sees
    /// them.
    public var declaredGraph: DependencyGraph {
        let snapshot = GraphSnapshot(of: core)
        let check = GraphCheck(snapshot: snapshot)
        var nodes: [ServiceKey: DependencyGraph.Node] = [:]
        var edges: [DependencyGraph.Edge] = []
        for index in snapshot.visible where snapshot.nodes[index].entry.role != .collection {
            let registration = snapshot.nodes[index].entry.registration
            nodes[registration.key] = DependencyGraph.Node(
                key: registration.key, scope: registration.scope, module: registration.module,
                forwardsTo: registration.forwardsTo)
        }
        func link(_ from: ServiceKey, _ to: ServiceKey) {
            if !edges.contains(where: { $0.from == from && $0.to == to }) {
                edges.append(DependencyGraph.Edge(from: from, to: to, isCycle: false))
            }
        }
        for index in snapshot.visible where snapshot.nodes[index].entry.declared != nil {
            let from = snapshot.nodes[index].entry.serviceKey
            let depth = check.resolvingDepth(index)
            for (dependency, answer) in check.declared(by: index, from: depth) {
                if dependency.kind == .collection {
                    let collection = dependency.service
                    nodes[collection] = DependencyGraph.Node(
                        key: collection, scope: nil, module: nil, isCollection: true)
                    link(from, collection)
                    for contribution in snapshot.contributions(to: dependency.key, from: depth) {
                        link(collection, snapshot.nodes[contribution].entry.serviceKey)
                    }
                } else if let answer {
                    link(from, snapshot.nodes[answer].entry.serviceKey)
                } else if dependency.kind != .optional {
                    nodes[dependency.service] =
                        nodes[dependency.service]
                        ?? DependencyGraph.Node(key: dependency.service, scope: nil, module: nil)
                    link(from, dependency.service)
                }
            }
        }
        for case .dependencyCycle(let path, _, _) in check.cycles() {
            for (from, to) in zip(path, path.dropFirst()) {
                if let index = edges.firstIndex(where: { $0.from == from && $0.to == to }) {
                    edges[index].isCycle = true
                }
            }
        }
        return DependencyGraph(
            nodes: nodes.values.sorted { $0.key < $1.key }, edges: edges, modules: moduleDeclarations)
    }
}
