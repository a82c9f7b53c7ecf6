import ServiceHive
import ServiceHiveTesting
import Support
import Testing

protocol Alarm: Sendable {
    var label: String { get }
}

struct FixedAlarm: Alarm {
    let label: String
}

/// Resolves the collection of alarms from `hive` many times with suspension points in between, and reports every
/// collection other than `expected`.
func alarmsOtherThan(_ expected: [String], hive: ServiceHive = .shared) async throws -> [[String]] {
    var others: [[String]] = []
    for _ in 0..<200 {
        let labels = try hive.resolveAll(Alarm.self).map(\.label)
        if labels != expected { others.append(labels) }
        await Task.yield()
    }
    return others
}

/// Tests that run in parallel, each adding its own contribution to the same collection of the shared hive. If one
/// test's contribution leaked into another's, that one would see a collection other than its own.
///
/// These catch a leak only when the tests run at the same time, which `--no-parallel` stops; the first test runs the
/// same scopes at the same time inside itself, whatever the runner does.
@Suite("The traits isolate the contributions of tests that run in parallel", .timeLimit(.minutes(5)))
struct ContributionTraitTests {
    @Test("the traits' scopes, entered by tasks of one test at the same time, each see only their own collection")
    func isolatedBodiesAtOnce() async throws {
        let test = try #require(Test.current)
        let scopes: [(trait: ServiceOverridesTrait?, expected: [String])] = [
            (.serviceOverrides { $0.contribute(Alarm.self) { FixedAlarm(label: "smoke") } }, ["smoke"]),
            (
                .serviceOverrides { $0.contribute(Alarm.self, scope: .singleton) { FixedAlarm(label: "flood") } },
                ["flood"]
            ),
            (
                .serviceOverrides {
                    $0.contribute(Alarm.self, instance: FixedAlarm(label: "burglar"))
                    $0.contribute(Alarm.self, instance: FixedAlarm(label: "fire"))
                }, ["burglar", "fire"]
            ),
            (nil, []),  // no trait: the shared hive's own collection, empty
        ]
        for round in 0..<5 {
            let others = try await withThrowingTaskGroup(of: [String].self) { group in
                for (index, (trait, expected)) in (scopes + scopes).enumerated() {
                    group.addTask {
                        let others = Locked<[[String]]?>(nil)  // nil until the body has run
                        let body: @Sendable () async throws -> Void = {
                            let seen = try await alarmsOtherThan(expected)
                            others.withLock { $0 = seen }
                        }
                        if let trait {
                            try await trait.provideScope(for: test, testCase: nil, performing: body)
                        } else {
                            try await body()
                        }
                        guard let seen = others.current else { return ["task \(index): the scope never ran its body"] }
                        return seen.map { "task \(index) expected \(expected), saw \($0)" }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(others.isEmpty, "round \(round): \(others.prefix(10))")
        }
    }

    @Test(.serviceOverrides { $0.contribute(Alarm.self) { FixedAlarm(label: "smoke") } })
    func smoke() async throws {
        #expect(try await alarmsOtherThan(["smoke"]).isEmpty)
    }

    @Test(.serviceOverrides { $0.contribute(Alarm.self, scope: .singleton) { FixedAlarm(label: "flood") } })
    func flood() async throws {
        #expect(try await alarmsOtherThan(["flood"]).isEmpty)
    }

    @Test(
        .serviceOverrides {
            $0.contribute(Alarm.self, instance: FixedAlarm(label: "burglar"))
            $0.contribute(Alarm.self, instance: FixedAlarm(label: "fire"))
        },
        arguments: 0..<8
    )
    func two(run: Int) async throws {
        #expect(try await alarmsOtherThan(["burglar", "fire"]).isEmpty, "run \(run)")
    }

    @Test("a test without the trait sees an empty collection, even while the others run")
    func untouched() async throws {
        #expect(try await alarmsOtherThan([]).isEmpty)
    }

    @Test(
        "a strict test hive resolves only the collection its builder contributes to",
        .testHive(strict: true) { $0.contribute(Alarm.self) { FixedAlarm(label: "test") } })
    func strictTestHive() throws {
        let hive = try TestHiveTrait.current
        try hive.contribute(Alarm.self) { FixedAlarm(label: "the hive's own") }
        #expect(try hive.resolveAll(Alarm.self).map(\.label) == ["test"])
    }

    @Test("a strict test hive that says nothing of a collection refuses to resolve it", .testHive(strict: true))
    func strictWithoutContributions() throws {
        let hive = try TestHiveTrait.current
        do {
            _ = try hive.resolveAll(Alarm.self)
            Issue.record("a strict hive resolved a collection that nothing overrides")
        } catch ServiceHiveError.notOverridden(let key, _) {
            #expect(key.service == "[Alarm]")
        }
    }
}
