import ServiceHive
import Support
import Testing

/// A module that contributes checks named by `labels` in `register(in:)`, and `started` in `start(in:)`.
struct ContributingModule: ServiceModule {
    let name: String
    var priority = 0
    var needs: [ServiceHive.ServiceReference] = []
    var provides: [ServiceHive.ServiceReference] = []
    var labels: [String] = []
    var started: [String] = []
    var failStart = false
    var failRegistration = false
    var removing: [String] = []
    var registersClock = false

    func register(in hive: ServiceHive) throws {
        if registersClock { try hive.register(Clock.self, scope: .singleton) { SystemClock() } }
        for name in removing { hive.removeContribution(HealthCheck.self, name: name) }
        for label in labels {
            try hive.contribute(HealthCheck.self, name: label, scope: .singleton) { LabelledCheck(label) }
        }
        if failRegistration { throw DatabaseOffline() }
    }

    func start(in hive: ServiceHive) async throws {
        for label in started {
            try hive.contribute(HealthCheck.self, name: label) { LabelledCheck(label) }
        }
        if failStart { throw DatabaseOffline() }
    }
}

@Suite("Contributions and modules", .timeLimit(.minutes(5)))
struct ContributionModuleTests {
    @Test("the order is the modules' install order, then each module's; contributions made in start come after")
    func installOrder() async throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "before") { LabelledCheck("before") }
        try await hive.install([
            ContributingModule(
                name: "Orders", needs: [.service(Clock.self)], labels: ["orders-1", "orders-2"],
                started: ["orders-late"]),
            ContributingModule(name: "Low", priority: -1, labels: ["low"]),
            ContributingModule(
                name: "Clock", provides: [.service(Clock.self)], labels: ["clock"], started: ["clock-late"],
                registersClock: true),
        ])
        #expect(hive.installedModules == ["Clock", "Orders", "Low"])
        #expect(
            try hive.resolveAll(HealthCheck.self).labels == [
                "before", "clock", "orders-1", "orders-2", "low", "clock-late", "orders-late",
            ])
    }

    @Test("a failed install removes exactly its contributions; the others keep their order, as a removed one's place")
    func rollback() async throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "a") { LabelledCheck("a") }
        try await hive.install(ContributingModule(name: "First", labels: ["b", "c"]))
        try hive.contribute(HealthCheck.self, name: "d") { LabelledCheck("d") }
        let before = try hive.resolveAll(HealthCheck.self).labels
        let snapshotBefore = snapshot(hive)
        #expect(before == ["a", "b", "c", "d"])

        for failure in ["registration", "start"] {
            let replacing = ContributingModule(
                name: "Replacing", priority: 2, labels: ["e", "f"], started: ["g"], removing: ["b", "d"])
            let failing = ContributingModule(
                name: "Failing", priority: 1, labels: ["h"], failStart: failure == "start",
                failRegistration: failure == "registration")
            let thrown = await asyncError { try await hive.install([replacing, failing]) }
            guard case .moduleFailed("Failing", _, _)? = thrown else {
                Issue.record("expected .moduleFailed, got \(String(describing: thrown))")
                continue
            }
            #expect(try hive.resolveAll(HealthCheck.self).labels == before, "after a failed \(failure)")
            #expect(snapshot(hive) == snapshotBefore)
        }
        #expect(hive.installedModules == ["First"])
    }

    @Test("registrations list contributions, marked, with their site and module; the table too")
    func registrations() async throws {
        let hive = ServiceHive()
        try await hive.install(ContributingModule(name: "Orders", labels: ["orders"]))
        try hive.contribute(HealthCheck.self, file: "App/main.swift", line: 9) { LabelledCheck("unnamed") }
        try hive.register(Clock.self, file: "App/main.swift", line: 10) { SystemClock() }
        let contributions = hive.registrations.filter(\.isContribution)
        #expect(contributions.map(\.name) == ["orders", nil])
        #expect(contributions.map(\.module) == ["Orders", nil])
        #expect(contributions.allSatisfy { $0.service == "HealthCheck" && $0.key.contributionSite == $0.site })
        #expect(
            contributions[1].description == "HealthCheck (contribution), transient, contribution, at App/main.swift:9")
        #expect(!hive.registrations.contains { $0.service == "Clock" && $0.isContribution })
        let table = hive.description.split(separator: "\n").map(String.init)
        #expect(table.contains("HealthCheck  -       transient, contribution  -          -       App/main.swift:9"))
        #expect(ServiceHive(parent: hive).visibleRegistrations.filter(\.isContribution).count == 2)
    }

    @Test("validate builds every contribution, names each failure with its site, and keeps nothing it built")
    func validate() throws {
        let hive = ServiceHive()
        let counter = BuildCounter()
        try hive.contribute(HealthCheck.self, scope: .singleton) { counter.check("disk") }
        try hive.contribute(HealthCheck.self, name: "trade", file: "App/Checks.swift", line: 4) { r in
            TradeCheck(trade: try r.resolve())
        }
        try hive.contribute(HealthCheck.self, name: "broken", file: "App/Checks.swift", line: 7) {
            throw DatabaseOffline()
        }
        try hive.contribute(HealthCheck.self, name: "queue") { _ async in LabelledCheck("queue") }
        let report = hive.validate()
        #expect(report.passed.map(\.key.name) == [nil])
        #expect(
            report.failures.map(\.description) == [
                #"FAILED HealthCheck (contribution "trade"), transient, contribution, at App/Checks.swift:4: "#
                    + "TradeService is not registered (needed by HealthCheck (contribution \"trade\", at "
                    + "App/Checks.swift:4)). To fix, register it before resolving: "
                    + "try hive.register(TradeService.self) { … }",
                #"FAILED HealthCheck (contribution "broken"), transient, contribution, at App/Checks.swift:7: "#
                    + #"The factory for HealthCheck (contribution "broken", at App/Checks.swift:7) threw: "#
                    + "database offline. To fix, make the factory succeed; nothing was cached, so the next resolve "
                    + "runs it again.",
            ])
        #expect(report.skipped.map(\.key.name) == ["queue"])
        #expect(counter.current == 1)
        #expect(hive.removeContribution(HealthCheck.self, name: "queue"))
        hive.removeContribution(HealthCheck.self, name: "broken")
        try hive.register(TradeService.self) { LiveTradeService() }
        _ = try hive.resolveAll(HealthCheck.self)
        #expect(counter.current == 2, "the validation's singleton was the sandbox's, and went with it")
    }

    @Test("validateAsync builds async contributions too")
    func validateAsync() async throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "queue", scope: .singleton) { _ async in LabelledCheck("queue") }
        let report = await hive.validateAsync()
        #expect(report.passed.map(\.key.name) == ["queue"] && report.isValid)
    }

    @Test(
        "the graph draws a collection with a link to each contribution, and from what resolved it, in Mermaid and DOT")
    func graph() async throws {
        let hive = ServiceHive()
        try await hive.install(ContributingModule(name: "Orders", labels: ["orders"]))
        try hive.contribute(HealthCheck.self, file: "App/main.swift", line: 3) { LabelledCheck("unnamed") }
        try hive.register(HealthReport.self) { r in HealthReport(checks: try r.resolveAll()) }
        let graph = hive.validate().graph
        let collection = try #require(graph.nodes.first { $0.isCollection })
        #expect(collection.key.description == "[HealthCheck]" && !collection.isMissing && collection.scope == nil)
        #expect(
            graph.mermaid == """
                flowchart LR
                    subgraph Orders["Orders"]
                        HealthCheck__contribution__orders__["HealthCheck (contribution 'orders')<br/>singleton"]
                    end
                    HealthCheck__contribution_at_App_main_swift_3_["HealthCheck (contribution at App/main.swift:3)<br/>transient"]
                    HealthReport["HealthReport<br/>transient"]
                    _HealthCheck_["[HealthCheck]<br/>collection"]
                    HealthReport --> _HealthCheck_
                    _HealthCheck_ --> HealthCheck__contribution__orders__
                    _HealthCheck_ --> HealthCheck__contribution_at_App_main_swift_3_
                """)
        #expect(
            graph.dot == #"""
                digraph ServiceHive {
                    rankdir=LR;
                    node [shape=box];
                    subgraph "cluster_Orders" {
                        label="Orders";
                        "HealthCheck (contribution \"orders\")" [label="HealthCheck (contribution 'orders')\nsingleton"];
                    }
                    "HealthCheck (contribution at App/main.swift:3)" [label="HealthCheck (contribution at App/main.swift:3)\ntransient"];
                    "HealthReport" [label="HealthReport\ntransient"];
                    "[HealthCheck]" [label="[HealthCheck]\ncollection"];
                    "HealthReport" -> "[HealthCheck]";
                    "[HealthCheck]" -> "HealthCheck (contribution \"orders\")";
                    "[HealthCheck]" -> "HealthCheck (contribution at App/main.swift:3)";
                }
                """#)
    }
}
