import Foundation
import ServiceHive
import Support
import Testing

@Suite("Overriding collections", .timeLimit(.minutes(5)))
struct ContributionOverrideTests {
    /// A hive with two contributions, `disk` a singleton and `queue` a transient.
    func hive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("disk") }
        try hive.contribute(HealthCheck.self, name: "queue") { LabelledCheck("queue") }
        return hive
    }

    @Test("an override's contribution follows the hive's, inside the operation only")
    func contributeInOverrides() throws {
        let hive = try hive()
        let disk = try hive.resolveAll(HealthCheck.self)[0]
        try hive.withOverrides {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
            $0.contribute(HealthCheck.self, name: "stub", instance: LabelledCheck("first stub"))
            $0.contribute(HealthCheck.self, name: "stub", instance: LabelledCheck("stub"))  // replaces the first
        } operation: {
            let inside = try hive.resolveAll(HealthCheck.self)
            #expect(inside.labels == ["disk", "queue", "mock", "stub"])
            #expect(inside[0] === disk, "the hive's singleton, built from nothing overridden, is the shared one")
        }
        let hiveChecks = try hive.resolveAll(HealthCheck.self)
        #expect(hiveChecks.labels == ["disk", "queue"])
    }

    @Test("replaceContributions hides the hive's and its ancestors', and keeps a child's; alone, it empties it")
    func replace() throws {
        let parent = try hive()
        let child = ServiceHive(parent: parent)
        try child.contribute(HealthCheck.self) { LabelledCheck("child") }
        try parent.withOverrides {
            $0.replaceContributions(of: HealthCheck.self)
        } operation: {
            let parentChecks = try parent.resolveAll(HealthCheck.self)
            #expect(parentChecks.isEmpty)
            let childChecks = try child.resolveAll(HealthCheck.self)
            #expect(childChecks.labels == ["child"])
        }
        try child.withOverrides {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
            $0.replaceContributions(of: HealthCheck.self)
        } operation: {
            let childChecks = try child.resolveAll(HealthCheck.self)
            #expect(childChecks.labels == ["mock"], "its own contribution stays")
            let parentChecks = try parent.resolveAll(HealthCheck.self)
            #expect(parentChecks.labels == ["disk", "queue"], "the parent is not replaced")
        }
    }

    @Test("nested overrides: the outer one's contributions come first; an inner replacement hides them")
    func nested() throws {
        let hive = try hive()
        try hive.withOverrides {
            $0.contribute(HealthCheck.self) { LabelledCheck("outer") }
        } operation: {
            try hive.withOverrides {
                $0.contribute(HealthCheck.self) { LabelledCheck("inner") }
            } operation: {
                let hiveChecks = try hive.resolveAll(HealthCheck.self)
                #expect(hiveChecks.labels == ["disk", "queue", "outer", "inner"])
                try hive.withOverrides {
                    $0.replaceContributions(of: HealthCheck.self)
                    $0.contribute(HealthCheck.self) { LabelledCheck("innermost") }
                } operation: {
                    let hiveChecks = try hive.resolveAll(HealthCheck.self)
                    #expect(hiveChecks.labels == ["innermost"])
                }
            }
            let hiveChecks = try hive.resolveAll(HealthCheck.self)
            #expect(hiveChecks.labels == ["disk", "queue", "outer"])
        }
    }

    @Test("an override's contribution to a parent comes after the parent's own, before a child's")
    func overrideOfAParent() throws {
        let parent = try hive()
        let child = ServiceHive(parent: parent)
        try child.contribute(HealthCheck.self) { LabelledCheck("child") }
        try parent.withOverrides {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
        } operation: {
            let childChecks = try child.resolveAll(HealthCheck.self)
            #expect(childChecks.labels == ["disk", "queue", "mock", "child"])
        }
    }

    @Test("strict overrides fail a collection they say nothing of, naming it; otherwise they show only theirs")
    func strict() throws {
        let hive = try hive()
        try hive.register(Clock.self) { SystemClock() }
        hive.withOverrides(strict: true) {
            $0.register(Clock.self) { SystemClock() }
        } operation: {
            let thrown = error { _ = try hive.resolveAll(HealthCheck.self) }
            #expect(
                thrown?.description
                    == "[HealthCheck] is not overridden in this strict withOverrides. To fix, contribute to it or "
                    + "replace it in the configure closure: $0.contribute(HealthCheck.self) { … }, or "
                    + "$0.replaceContributions(of: HealthCheck.self) for none; or leave strict off.")
            guard case .notOverridden(let key, _)? = thrown else {
                Issue.record("expected .notOverridden, got \(String(describing: thrown))")
                return
            }
            #expect(key.service == "[HealthCheck]")
        }
        try hive.withOverrides(strict: true) {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
        } operation: {
            let hiveChecks = try hive.resolveAll(HealthCheck.self)
            #expect(hiveChecks.labels == ["mock"], "the hive's own are never reached")
        }
        try hive.withOverrides(strict: true) {
            $0.replaceContributions(of: HealthCheck.self)
        } operation: {
            let hiveChecks = try hive.resolveAll(HealthCheck.self)
            #expect(hiveChecks.isEmpty)
        }
        let child = ServiceHive(parent: hive)
        try child.contribute(HealthCheck.self) { LabelledCheck("child") }
        try hive.withOverrides(strict: true) {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
        } operation: {
            let childChecks = try child.resolveAll(HealthCheck.self)
            #expect(childChecks.labels == ["mock", "child"], "a child's own are reached")
        }
    }

    @Test("concurrent tasks adding different mock contributions to one hive each see only theirs")
    func parallelOverridesStayPrecise() async throws {
        let hive = try hive()
        let report = Locked(0)
        try hive.register(HealthReport.self, scope: .singleton) { r in
            report.increment()
            return HealthReport(checks: try r.resolveAll())
        }
        let shared = try hive.resolve(HealthReport.self)
        let mismatches = try await within("eight tasks overriding the collection, 25 times each", limit: .seconds(120))
        {
            try await withThrowingTaskGroup(of: [String].self) { tasks in
                for task in 0..<8 {
                    tasks.addTask {
                        var wrong: [String] = []
                        for round in 0..<25 {
                            let mine = "mock \(task).\(round)"
                            try await hive.withOverrides {
                                $0.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck(mine) }
                            } operation: {
                                await Task.yield()
                                let labels = try hive.resolveAll(HealthCheck.self).labels
                                let built = try hive.resolve(HealthReport.self).labels
                                if labels != ["disk", "queue", mine] { wrong.append("\(mine) saw \(labels)") }
                                if built != labels { wrong.append("\(mine)'s report saw \(built)") }
                            }
                        }
                        return wrong
                    }
                }
                return try await tasks.reduce(into: [String]()) { $0 += $1 }
            }
        }
        #expect(mismatches.isEmpty)
        let outside = try hive.resolve(HealthReport.self)
        #expect(outside === shared, "the report built outside is still the world's")
        #expect(shared.labels == ["disk", "queue"])
        #expect(report.current == 1 + 8 * 25, "each override built a report of its own, from its own collection")
    }

    @Test("a singleton built from a collection is shared with overrides that don't touch the collection")
    func notTooWide() throws {
        let hive = try hive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(HealthReport.self, scope: .singleton) { r in HealthReport(checks: try r.resolveAll()) }
        let shared = try hive.resolve(HealthReport.self)
        try hive.withOverrides {
            $0.register(Clock.self) { SystemClock() }
        } operation: {
            let report = try hive.resolve(HealthReport.self)
            #expect(report === shared)
        }
        let built = try hive.withOverrides {
            $0.register(Clock.self) { SystemClock() }
            $0.replaceContributions(of: HealthCheck.self)
        } operation: {
            let inside = try hive.resolve(HealthReport.self)
            #expect(inside.checks.isEmpty)
            return inside
        }
        #expect(built !== shared)
        let report = try hive.resolve(HealthReport.self)
        #expect(report === shared)
    }

    @Test("a singleton built from a collection inside overrides that contribute to it never leaks out")
    func notTooNarrow() throws {
        let hive = try hive()
        try hive.register(HealthReport.self, scope: .singleton) { r in HealthReport(checks: try r.resolveAll()) }
        let inside = try hive.withOverrides {
            $0.contribute(HealthCheck.self) { LabelledCheck("mock") }
        } operation: {
            try hive.resolve(HealthReport.self)
        }
        #expect(inside.labels == ["disk", "queue", "mock"])
        #expect(try hive.resolve(HealthReport.self).labels == ["disk", "queue"])
    }

    @Test("an override's singleton contribution is kept by the override, and released when it ends")
    func layerSingletonIsReleased() throws {
        let hive = try hive()
        weak var kept: LabelledCheck?
        try hive.withOverrides {
            $0.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("mock") }
        } operation: {
            let first = try hive.resolveAll(HealthCheck.self)
            let second = try hive.resolveAll(HealthCheck.self)
            #expect(second[2] === first[2])
            // A failed cast would leave `kept` nil from the start and the check below vacuous: require it.
            let mock = try #require(first[2] as? LabelledCheck)
            #expect(mock.label == "mock")
            kept = mock
        }
        #expect(kept == nil, "the override's singleton outlives the override")
    }

    @Test("async: a collection inside overrides, with an async contribution of the override")
    func asyncInOverrides() async throws {
        let hive = try hive()
        try await hive.withOverrides {
            $0.contribute(HealthCheck.self, scope: .singleton) { _ in
                await Task.yield()
                return LabelledCheck("async mock")
            }
        } operation: {
            let checks = try await hive.resolveAllAsync(HealthCheck.self)
            #expect(checks.labels == ["disk", "queue", "async mock"])
            let again = try await hive.resolveAllAsync(HealthCheck.self)
            #expect(again[2] === checks[2])
        }
        #expect(try await hive.resolveAllAsync(HealthCheck.self).labels == ["disk", "queue"])
    }
}
