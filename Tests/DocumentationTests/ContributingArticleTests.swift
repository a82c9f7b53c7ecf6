import ServiceHive
import Support
import Testing

// The code of the article "Contributing to Collections", compiled and run here. `DocumentationSnippetTests` checks that
// the article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the other articles'.
enum ContributingArticle {
    protocol HealthCheck: Sendable {
        var name: String { get }
        func check() -> Bool
    }

    struct DiskCheck: HealthCheck {
        var name: String { "disk" }
        func check() -> Bool { true }
    }

    final class ConnectionPool: Sendable {}

    struct DatabaseCheck: HealthCheck {
        let pool: ConnectionPool
        var name: String { "database" }
        func check() -> Bool { true }
    }

    struct FailingCheck: HealthCheck {
        var name: String { "failing" }
        func check() -> Bool { false }
    }

    /// Every check's outcome, in the collection's order.
    struct HealthReport: Sendable {
        let checks: [any HealthCheck]
        var summary: String { checks.map { "\($0.name) \($0.check() ? "ok" : "FAILED")" }.joined(separator: ", ") }
    }

    @Suite("Contributing to Collections: contributing and resolving", .timeLimit(.minutes(5)))
    struct BasicsTests {
        @Test("contributions resolve together, in the order contributed, apart from a registration of the protocol")
        func basics() throws {
            let hive = ServiceHive()
            try hive.register(ConnectionPool.self, scope: .singleton) { ConnectionPool() }
            // snippet: contributing-basics
            try hive.contribute(HealthCheck.self, scope: .singleton) { DiskCheck() }
            try hive.contribute(HealthCheck.self, name: "database", scope: .singleton) { r in
                DatabaseCheck(pool: try r.resolve())
            }

            let checks: [any HealthCheck] = try hive.resolveAll()
            print(checks.map(\.name))  // ["disk", "database"]
            // end-snippet
            #expect(checks.map(\.name) == ["disk", "database"])
            #expect(!hive.isRegistered(HealthCheck.self))
            #expect(try ServiceHive().resolveAll(HealthCheck.self).isEmpty)
        }
    }
}

// snippet: contributing-modules
extension ContributingArticle {
    struct StorageModule: ServiceModule {
        func register(in hive: ServiceHive) throws {
            try hive.register(ConnectionPool.self, scope: .singleton) { ConnectionPool() }
            try hive.contribute(HealthCheck.self, name: "database", scope: .singleton) { r in
                DatabaseCheck(pool: try r.resolve())
            }
        }
    }

    struct MonitoringModule: ServiceModule {
        func register(in hive: ServiceHive) throws {
            try hive.contribute(HealthCheck.self, name: "disk", scope: .singleton) { DiskCheck() }
            try hive.register(HealthReport.self) { r in HealthReport(checks: try r.resolveAll()) }
        }
    }

    @Suite("Contributing to Collections: contributions from modules", .timeLimit(.minutes(5)))
    struct ModulesTests {
        @Test("each module contributes its check, and the report has them all, in install order")
        func modules() async throws {
            let hive = ServiceHive()
            try await hive.install([StorageModule(), MonitoringModule()])
            print(try hive.resolve(HealthReport.self).summary)  // database ok, disk ok
            // end-snippet
            #expect(try hive.resolve(HealthReport.self).summary == "database ok, disk ok")
        }

        @Test("an override replaces the collection for the test alone")
        func overrides() async throws {
            let hive = ServiceHive()
            try await hive.install([StorageModule(), MonitoringModule()])
            // snippet: contributing-overrides
            try hive.withOverrides {
                $0.replaceContributions(of: HealthCheck.self)
                $0.contribute(HealthCheck.self) { FailingCheck() }
            } operation: {
                let report = try hive.resolve(HealthReport.self)
                #expect(report.summary == "failing FAILED")
            }
            // end-snippet
            #expect(try hive.resolve(HealthReport.self).summary == "database ok, disk ok")
        }

        @Test("the graph draws the collection with a link to each contribution, and from the report")
        func graph() async throws {
            // snippet: contributing-graph
            let hive = ServiceHive()
            try await hive.install([StorageModule(), MonitoringModule()])
            print(hive.validate().graph.mermaid)
            // end-snippet
            #expect(
                hive.validate().graph.mermaid == """
                    flowchart LR
                        subgraph MonitoringModule["MonitoringModule"]
                            HealthCheck__contribution__disk__["HealthCheck (contribution 'disk')<br/>singleton"]
                            HealthReport["HealthReport<br/>transient"]
                        end
                        subgraph StorageModule["StorageModule"]
                            ConnectionPool["ConnectionPool<br/>singleton"]
                            HealthCheck__contribution__database__["HealthCheck (contribution 'database')<br/>singleton"]
                        end
                        _HealthCheck_["[HealthCheck]<br/>collection"]
                        HealthCheck__contribution__database__ --> ConnectionPool
                        HealthReport --> _HealthCheck_
                        _HealthCheck_ --> HealthCheck__contribution__database__
                        _HealthCheck_ --> HealthCheck__contribution__disk__
                    """)
        }

        @Test("the article's two error messages are the ones the hive throws")
        func errors() throws {
            let hive = ServiceHive()
            try hive.register(ConnectionPool.self, scope: .singleton) { ConnectionPool() }
            try hive.contribute(HealthCheck.self, name: "database", file: "Storage/StorageModule.swift", line: 12) {
                DiskCheck()
            }
            let duplicate = #expect(throws: ServiceHiveError.self) {
                try hive.contribute(HealthCheck.self, name: "database", file: "Billing/BillingModule.swift", line: 30) {
                    DiskCheck()
                }
            }
            #expect(
                duplicate?.description
                    == #"Two contributions to [HealthCheck] in one hive are named "database": the one at "#
                    + "Storage/StorageModule.swift:12 stays, and the one at Billing/BillingModule.swift:30 was "
                    + "rejected. To fix, give one of them another name, or remove the first with "
                    + #"hive.removeContribution(HealthCheck.self, name: "database")."#)
            let failing = ServiceHive()
            try failing.contribute(HealthCheck.self, name: "database", file: "Storage/StorageModule.swift", line: 12) {
                () throws -> DatabaseCheck in throw ConnectionRefused()
            }
            let thrown = #expect(throws: ServiceHiveError.self) { try failing.resolveAll(HealthCheck.self) }
            #expect(
                thrown?.description
                    == #"The factory for HealthCheck (contribution "database", at Storage/StorageModule.swift:12) "#
                    + "(needed by [HealthCheck]) threw: connection refused. To fix, make the factory succeed; nothing "
                    + "was cached, so the next resolve runs it again.")
        }
    }

    struct ConnectionRefused: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }
}
