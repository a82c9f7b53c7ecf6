import ServiceHive
import Testing

@Suite("The dependency graph of a validation", .timeLimit(.minutes(5)))
struct DependencyGraphTests {
    /// Trade (two modules' worth of services), a missing payment service, and a cycle.
    func hive() async throws -> ServiceHive {
        let hive = ServiceHive()
        try await hive.install([
            RecordingModule(name: "Trade", priority: 2, journal: Journal()) { hive in
                try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
                try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            },
            RecordingModule(name: "Checkout", priority: 1, journal: Journal()) { hive in
                try hive.register(Report.self) { r in
                    _ = try r.resolve(Cart.self)
                    _ = try r.resolve(Session.self)  // never registered
                    return LiveReport(header: SystemClock(), footer: SystemClock())
                }
            },
        ])
        try hive.register(Chicken.self) { r in LiveChicken(egg: try r.resolve()) }
        try hive.register(Egg.self) { r in LiveEgg(chicken: try r.resolve()) }
        return hive
    }

    @Test("nodes carry scope and module, edges follow what was built, and missing services are nodes too")
    func nodesAndEdges() async throws {
        let graph = try await hive().validate().graph
        let nodes = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.key.service, $0) })
        #expect(nodes["Cart"]?.module == "Trade" && nodes["Report"]?.module == "Checkout")
        #expect(nodes["TradeService"]?.scope == .singleton)
        #expect(nodes["Session"]?.isMissing == true)
        let edges = graph.edges.map { "\($0.from) -> \($0.to)\($0.isCycle ? " (cycle)" : "")" }
        #expect(edges.contains("Cart -> TradeService"))
        #expect(edges.contains("Report -> Cart"))
        #expect(edges.contains("Report -> Session"))
        #expect(edges.contains("Chicken -> Egg (cycle)") && edges.contains("Egg -> Chicken (cycle)"))
    }

    @Test("Mermaid groups services by module, marks scopes, and draws what is missing and cyclic in red")
    func mermaid() async throws {
        let mermaid = try await hive().validate().graph.mermaid
        #expect(mermaid.hasPrefix("flowchart LR\n"))
        #expect(mermaid.contains("    subgraph Trade[\"Trade\"]\n        Cart[\"Cart<br/>transient\"]"))
        #expect(mermaid.contains("TradeService[\"TradeService<br/>singleton\"]"))
        #expect(mermaid.contains("    Report --> Session"))
        #expect(mermaid.contains("    class Session missing"))
        #expect(mermaid.contains("linkStyle"))
    }

    @Test("DOT clusters services by module and colours what is missing and cyclic red")
    func dot() async throws {
        let dot = try await hive().validate().graph.dot
        #expect(dot.hasPrefix("digraph ServiceHive {"))
        #expect(dot.contains("    subgraph \"cluster_Trade\" {\n        label=\"Trade\";"))
        #expect(dot.contains("\"Session\" [label=\"Session\\nnot registered\", color=red, fontcolor=red];"))
        #expect(dot.contains("\"Chicken\" -> \"Egg\" [color=red];"))
        #expect(dot.hasSuffix("}"))
    }

    @Test("DOT escapes the quotes of a named service, so that its name stays inside one identifier")
    func dotQuotesNames() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, name: "premium", scope: .singleton) { LiveTradeService() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve(TradeService.self, name: "premium")) }
        let dot = hive.validate().graph.dot
        let premium = #""TradeService (name: \"premium\")""#
        #expect(dot.contains("    \(premium) [label=\"TradeService (name: 'premium')\\nsingleton\"];"))
        #expect(dot.contains("    \"Cart\" -> \(premium);"))
    }

    @Test("a forwarded key is labelled with the registration it forwards to, and links to it")
    func forwards() throws {
        let hive = ServiceHive()
        try hive.register(LiveTradeService.self, scope: .singleton) { LiveTradeService() }
        try hive.forward(TradeService.self, to: LiveTradeService.self) { $0 }
        let graph = hive.validate().graph
        let node = try #require(graph.nodes.first { $0.key.service == "TradeService" })
        #expect(node.forwardsTo?.service == "LiveTradeService")
        #expect(graph.mermaid.contains(#"    TradeService["TradeService<br/>forwards to LiveTradeService"]"#))
        #expect(graph.mermaid.contains("    TradeService --> LiveTradeService"))
        #expect(graph.dot.contains(#"    "TradeService" [label="TradeService\nforwards to LiveTradeService"];"#))
    }

    @Test("Mermaid writes a generic type's angle brackets as entity codes, which it doesn't take for HTML")
    func mermaidEscapesGenerics() throws {
        let hive = ServiceHive()
        try hive.register(Tagged<Int>.self) { Tagged() }
        let mermaid = hive.validate().graph.mermaid
        #expect(mermaid.contains(#"    Tagged_Int_["Tagged#lt;Int#gt;<br/>transient"]"#))
        #expect(hive.validate().graph.dot.contains(#"    "Tagged<Int>" [label="Tagged<Int>\ntransient"];"#))
    }
}

@Suite("The dependency graph draws modules' needs and provisions", .timeLimit(.minutes(5)))
struct ModuleGraphTests {
    /// Trade provides the trade service and Orders needs it, as Billing needs a clock that only the hive registers,
    /// and a premium trade service that Trade does not register and nothing else does.
    func hive() async throws -> ServiceHive {
        let hive = ServiceHive()
        let journal = Journal()
        try hive.register(Clock.self) { SystemClock() }
        try await hive.install([
            DeclaringModule(name: "Orders", needs: [.trade], provides: [.cart], journal: journal) { hive in
                try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            },
            DeclaringModule(name: "Trade", provides: [.trade], journal: journal) { hive in
                try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
                try hive.register(Session.self) { LiveSession() }
            },
            DeclaringModule(name: "Billing", needs: [.clock], journal: journal),
        ])
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try await hive.install(
            DeclaringModule(
                name: "Premium", needs: [.service(TradeService.self, name: "premium")], journal: journal))
        hive.unregister(TradeService.self, name: "premium")
        return hive
    }

    @Test("the graph lists the modules with their declarations, and a need nothing registers as missing")
    func modules() async throws {
        let graph = try await hive().validate().graph
        #expect(graph.modules.map(\.name) == ["Trade", "Orders", "Billing", "Premium"], "in the order they install")
        #expect(
            graph.modules.map(\.needs) == [
                [], [ServiceHive.ServiceKey(TradeService.self)], [ServiceHive.ServiceKey(Clock.self)],
                [ServiceHive.ServiceKey(TradeService.self, name: "premium")],
            ])
        #expect(
            graph.modules.map(\.provides) == [
                [ServiceHive.ServiceKey(TradeService.self)], [ServiceHive.ServiceKey(Cart.self)], [], [],
            ])
        let premium = try #require(graph.nodes.first { $0.key.name == "premium" })
        #expect(premium.isMissing && premium.module == nil)
    }

    @Test("Mermaid draws each need as a dotted link from its module, and each provision with a thick border")
    func mermaid() async throws {
        #expect(
            try await hive().validate().graph.mermaid == #"""
                flowchart LR
                    subgraph Billing["Billing"]
                    end
                    subgraph Orders["Orders"]
                        Cart["Cart<br/>transient"]
                    end
                    subgraph Premium["Premium"]
                    end
                    subgraph Trade["Trade"]
                        Session["Session<br/>transient"]
                        TradeService["TradeService<br/>singleton"]
                    end
                    Clock["Clock<br/>transient"]
                    TradeService__name___premium__["TradeService (name: 'premium')<br/>not registered"]
                    Cart --> TradeService
                    Orders -. needs .-> TradeService
                    Billing -. needs .-> Clock
                    Premium -. needs .-> TradeService__name___premium__
                    classDef provided stroke-width:3px
                    class Cart,TradeService provided
                    classDef missing fill:#fdd,stroke:#c00,color:#c00
                    class TradeService__name___premium__ missing
                """#)
    }

    @Test("DOT draws each need as a dashed link from a module node in its cluster, and each provision thick")
    func dot() async throws {
        let dot = try await hive().validate().graph.dot
        #expect(
            dot.split(separator: "\n") == [
                #"digraph ServiceHive {"#,
                #"    rankdir=LR;"#,
                #"    node [shape=box];"#,
                #"    subgraph "cluster_Billing" {"#,
                #"        label="Billing";"#,
                #"        "module Billing" [label="module", shape=folder];"#,
                #"    }"#,
                #"    subgraph "cluster_Orders" {"#,
                #"        label="Orders";"#,
                #"        "module Orders" [label="module", shape=folder];"#,
                #"        "Cart" [label="Cart\ntransient", penwidth=3];"#,
                #"    }"#,
                #"    subgraph "cluster_Premium" {"#,
                #"        label="Premium";"#,
                #"        "module Premium" [label="module", shape=folder];"#,
                #"    }"#,
                #"    subgraph "cluster_Trade" {"#,
                #"        label="Trade";"#,
                #"        "Session" [label="Session\ntransient"];"#,
                #"        "TradeService" [label="TradeService\nsingleton", penwidth=3];"#,
                #"    }"#,
                #"    "Clock" [label="Clock\ntransient"];"#,
                #"    "TradeService (name: \"premium\")" [label="TradeService (name: 'premium')\nnot registered", "#
                    + #"color=red, fontcolor=red];"#,
                #"    "Cart" -> "TradeService";"#,
                #"    "module Orders" -> "TradeService" [style=dashed, label="needs"];"#,
                #"    "module Billing" -> "Clock" [style=dashed, label="needs"];"#,
                #"    "module Premium" -> "TradeService (name: \"premium\")" [style=dashed, label="needs"];"#,
                #"}"#,
            ])
    }

    @Test("a child's graph draws the modules installed in its parent too")
    func child() async throws {
        let parent = try await hive()
        let child = ServiceHive(parent: parent)
        try await child.install(DeclaringModule(name: "Request", needs: [.cart], journal: Journal()))
        #expect(child.validate().graph.modules.map(\.name) == ["Request", "Trade", "Orders", "Billing", "Premium"])
        #expect(child.validate().graph.mermaid.contains("    Request -. needs .-> Cart"))
    }
}

/// A generic service, whose key has angle brackets.
private struct Tagged<Value>: Sendable {}
