extension ServiceHive {
    /// Who resolved whom, as ``ServiceHive/validate(_:)`` found it by building every registration: a picture of the
    /// composition root, as Mermaid or Graphviz DOT.
    ///
    /// ```swift
    /// print(hive.validate().graph.mermaid)
    /// ```
    ///
    /// Services are grouped by the module that registered them and labelled with their scope, or with the registration
    /// they forward to. A service that is needed and not registered, and the links of a cycle, are drawn in red.
    ///
    /// The modules installed in the hive and its ancestors are drawn with what they declare: a dotted link labelled
    /// `needs` from a module to each service in its ``ServiceModule/needs``, and a thick border around each service in
    /// its ``ServiceModule/provides``.
    ///
    /// A collection that modules contribute to, such as `[HealthCheck]`, is a node of its own, labelled `collection`,
    /// with a link to each contribution, and a link to it from each service that resolves it. A named contribution is
    /// labelled with its name, such as `HealthCheck (contribution "database")`; one without a name, with its site.
    public struct DependencyGraph: Sendable, Hashable {
        /// A service of the graph.
        public struct Node: Sendable, Hashable {
            /// The service.
            public var key: ServiceKey
            /// Its registration's scope, or `nil` for a service that is needed but not registered.
            public var scope: Scope?
            /// The module that registered it, or `nil`.
            public var module: String?
            /// The registration it forwards to, for a key registered with `forward(_:to:as:)`, or `nil`. The graph
            /// labels it with that instead of its scope, since it shares its target's instance.
            public var forwardsTo: ServiceKey? = nil
            /// Whether the node is a collection, such as `[HealthCheck]`, whose links lead to its contributions. A
            /// collection has no scope, and is never missing: without contributions, it is empty.
            public var isCollection = false

            /// Whether the service is needed but not registered.
            public var isMissing: Bool { scope == nil && !isCollection }
        }

        /// A service that one service resolved while it was built.
        public struct Edge: Sendable, Hashable {
            /// The service being built.
            public var from: ServiceKey
            /// The service it resolved.
            public var to: ServiceKey
            /// Whether the link is part of a cycle.
            public var isCycle: Bool
        }

        /// A module installed in the hive or an ancestor, with what it declares.
        public struct Module: Sendable, Hashable {
            /// The module's name.
            public var name: String
            /// The services in its ``ServiceModule/needs``.
            public var needs: [ServiceKey]
            /// The services in its ``ServiceModule/provides``.
            public var provides: [ServiceKey]

            /// Whether `key` is one of the services in `services`: the same service and name, whatever the runtime
            /// arguments, as a declaration stands for.
            fileprivate static func declares(_ services: [ServiceKey], _ key: ServiceKey) -> Bool {
                key.contributionSite == nil && services.contains { $0.service == key.service && $0.name == key.name }
            }
        }

        /// Every service, sorted by key.
        public var nodes: [Node]
        /// Every link, in the order validation first followed it.
        public var edges: [Edge]
        /// The modules installed in the hive and its ancestors, the hive's first, each hive's in the order they
        /// install.
        public var modules: [Module] = []

        /// The graph as a Mermaid flowchart, which GitHub and DocC render.
        public var mermaid: String {
            var lines = ["flowchart LR"]
            let needLinks = needLinks
            for (module, nodes) in grouped(needLinks) {
                let declarations = nodes.map { node in
                    // Mermaid takes `<…>` in a label for HTML, and drops it: a generic type's brackets are written as
                    // Mermaid's entity codes.
                    let label = Self.label(node, separator: "<br/>", escaping: ["<": "#lt;", ">": "#gt;"])
                    return "\(Self.identifier(node.key))[\"\(label)\"]"
                }
                if let module {
                    lines.append("    subgraph \(Self.identifier(module))[\"\(module)\"]")
                    lines += declarations.map { "        " + $0 }
                    lines.append("    end")
                } else {
                    lines += declarations.map { "    " + $0 }
                }
            }
            for edge in edges { lines.append("    \(Self.identifier(edge.from)) --> \(Self.identifier(edge.to))") }
            for (module, service) in needLinks {
                lines.append("    \(Self.identifier(module)) -. needs .-> \(Self.identifier(service))")
            }
            let provided = nodes.filter(isProvided).map { Self.identifier($0.key) }
            if !provided.isEmpty {
                lines.append("    classDef provided stroke-width:3px")
                lines.append("    class \(provided.joined(separator: ",")) provided")
            }
            let missing = nodes.filter(\.isMissing).map { Self.identifier($0.key) }
            if !missing.isEmpty {
                lines.append("    classDef missing fill:#fdd,stroke:#c00,color:#c00")
                lines.append("    class \(missing.joined(separator: ",")) missing")
            }
            for (index, edge) in edges.enumerated() where edge.isCycle {
                lines.append("    linkStyle \(index) stroke:#c00,color:#c00")
            }
            return lines.joined(separator: "\n")
        }

        /// The graph in Graphviz's DOT language.
        public var dot: String {
            var lines = ["digraph ServiceHive {", "    rankdir=LR;", "    node [shape=box];"]
            let needLinks = needLinks
            for (module, nodes) in grouped(needLinks) {
                let declarations = nodes.map { node in
                    let red = node.isMissing ? ", color=red, fontcolor=red" : ""
                    let thick = isProvided(node) ? ", penwidth=3" : ""
                    return "\(Self.quoted(node.key)) [label=\"\(Self.label(node, separator: "\\n"))\"\(red)\(thick)];"
                }
                if let module {
                    lines.append("    subgraph \(Self.quoted("cluster_\(module)")) {")
                    lines.append("        label=\(Self.quoted(module));")
                    if needLinks.contains(where: { $0.module == module }) {
                        lines.append("        \(Self.quoted("module \(module)")) [label=\"module\", shape=folder];")
                    }
                    lines += declarations.map { "        " + $0 }
                    lines.append("    }")
                } else {
                    lines += declarations.map { "    " + $0 }
                }
            }
            for edge in edges {
                lines.append(
                    "    \(Self.quoted(edge.from)) -> \(Self.quoted(edge.to))\(edge.isCycle ? " [color=red]" : "");")
            }
            for (module, service) in needLinks {
                lines.append(
                    "    \(Self.quoted("module \(module)")) -> \(Self.quoted(service)) [style=dashed, label=\"needs\"];"
                )
            }
            lines.append("}")
            return lines.joined(separator: "\n")
        }

        /// The nodes by module, modules sorted by name, services without one last. A module with links to what it
        /// needs has a group, even if it registered nothing.
        private func grouped(_ needLinks: [(module: String, service: ServiceKey)]) -> [(String?, [Node])] {
            let needing = Set(needLinks.map(\.module))
            let modules = Set(nodes.compactMap(\.module)).union(needing).sorted()
            return (modules.map(Optional.some) + [nil]).compactMap { module in
                let members = nodes.filter { $0.module == module }
                return members.isEmpty && !needing.contains(module ?? "") ? nil : (module, members)
            }
        }

        /// A link from each module to each service it needs: to every node of the service and name, whatever its
        /// runtime arguments, in the order the modules and their needs are declared.
        private var needLinks: [(module: String, service: ServiceKey)] {
            var links: [(module: String, service: ServiceKey)] = []
            for module in modules {
                for node in module.needs.flatMap({ need in nodes.filter { Module.declares([need], $0.key) } })
                where !links.contains(where: { $0.module == module.name && $0.service == node.key }) {
                    links.append((module.name, node.key))
                }
            }
            return links
        }

        /// Whether a module declares `node` in its provisions and registered it.
        private func isProvided(_ node: Node) -> Bool {
            modules.contains { $0.name == node.module && Module.declares($0.provides, node.key) }
        }

        /// A node's key and its scope or target, on two lines: quotes become apostrophes, and `escaping` replaces other
        /// characters.
        private static func label(_ node: Node, separator: String, escaping: [Character: String] = [:]) -> String {
            func text(_ text: String) -> String {
                text.map { $0 == "\"" ? "'" : escaping[$0] ?? String($0) }.joined()
            }
            let kind =
                node.isCollection
                ? "collection"
                : node.forwardsTo.map { "forwards to \($0)" } ?? node.scope.map(\.description) ?? "not registered"
            return text(Self.name(node.key)) + separator + text(kind)
        }

        /// How the graph names a key: as it prints, but a named contribution without its site, which would change with
        /// every line added above it.
        private static func name(_ key: ServiceKey) -> String {
            key.contributionSite != nil && key.name != nil ? key.withoutSite : key.description
        }

        /// A DOT identifier for a key: quoted, with its quotes and backslashes escaped, so that a named service such
        /// as `TradeService (name: "premium")` stays one identifier.
        private static func quoted(_ key: ServiceHive.ServiceKey) -> String { quoted(name(key)) }

        private static func quoted(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }

        /// A Mermaid identifier for a key or a module: letters, digits and underscores.
        private static func identifier(_ key: ServiceKey) -> String { identifier(name(key)) }

        private static func identifier(_ text: String) -> String {
            String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }
    }
}

extension ServiceHive.DependencyGraph {
    /// The graph of what validation built: the traces of its attempts, the registrations it tried, and its failures,
    /// whose cycles it draws in red.
    init(
        traces: [ServiceHive.Trace.Node],
        registrations: [ServiceHive.Registration],
        cycles: [[ServiceHive.ServiceKey]],
        modules declared: [Module] = []
    ) {
        var nodes: [ServiceHive.ServiceKey: Node] = [:]
        var edges: [Edge] = []
        let modules = Dictionary(
            registrations.map { ($0.key, $0.site.module) }, uniquingKeysWith: { first, _ in first })
        func add(_ node: ServiceHive.Trace.Node) {
            if node.key.collectionOf != nil {
                nodes[node.key] = Node(key: node.key, scope: nil, module: nil, isCollection: true)
            } else if nodes[node.key] == nil || nodes[node.key]?.scope == nil,
                node.scope != nil || node.outcome == .failed
            {
                nodes[node.key] = Node(key: node.key, scope: node.scope, module: modules[node.key] ?? nil)
            }
            for child in node.children
            where child.scope != nil || child.outcome == .failed || child.key.collectionOf != nil {
                if !edges.contains(where: { $0.from == node.key && $0.to == child.key }) {
                    edges.append(Edge(from: node.key, to: child.key, isCycle: false))
                }
                add(child)
            }
        }
        for registration in registrations {
            nodes[registration.key] = Node(
                key: registration.key, scope: registration.scope, module: registration.module,
                forwardsTo: registration.forwardsTo)
        }
        traces.forEach(add)
        // Each collection, with a link to each of its contributions, whether or not anything resolved it.
        for contribution in registrations where contribution.isContribution {
            let collection = ServiceHive.ServiceKey(collectionOf: contribution.key.service)
            nodes[collection] = Node(key: collection, scope: nil, module: nil, isCollection: true)
            if !edges.contains(where: { $0.from == collection && $0.to == contribution.key }) {
                edges.append(Edge(from: collection, to: contribution.key, isCycle: false))
            }
        }
        for cycle in cycles {
            for (from, to) in zip(cycle, cycle.dropFirst()) {
                if let index = edges.firstIndex(where: { $0.from == from && $0.to == to }) {
                    edges[index].isCycle = true
                } else {
                    edges.append(Edge(from: from, to: to, isCycle: true))
                }
            }
        }
        // A declared need that nothing registers, and that validation did not reach, is missing too.
        for need in declared.flatMap(\.needs) where !nodes.keys.contains(where: { Module.declares([need], $0) }) {
            nodes[need] = Node(key: need, scope: nil, module: nil)
        }
        self.init(nodes: nodes.values.sorted { $0.key < $1.key }, edges: edges, modules: declared)
    }
}
