import ServiceHive
import Support
import Testing

// The hive keeps a snapshot of a collection's cached values, which `resolveAll` returns to any thread without taking a
// copy: its values are made once, under the family lock, before another thread sees them, and a change to the
// contributions drops the snapshot rather than changing it. The compiler cannot check that claim (the `Box` of the
// values), so this test races it: threads resolve the collection while others add and remove contributions. Under
// `--sanitize=thread`, a snapshot written after it is shared is a reported race; without it, a snapshot kept past a
// change shows as a collection with a contribution that is gone, or without one that is there.

@Suite("A collection's snapshot is safe to share while its contributions change", .timeLimit(.minutes(5)))
struct CollectionSnapshotRaceTests {
    @Test("threads resolving a collection while others add and remove contributions see whole, current collections")
    func resolvesWhileContributionsChange() async throws {
        let writers = 2
        let readers = 2
        let rounds = 400
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, instance: LabelledCheck("first"))
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("last") }

        // Each writer has at most one contribution at a time, `w<writer>-<round>`, which it checks it sees after adding
        // it and no longer sees after removing it. Each reader returns every collection it saw that breaks the rules.
        let broken = try await onThreads(writers + readers, "resolves beside changes") { index -> [String] in
            var wrong: [String] = []
            if index < writers {
                for round in 0..<rounds {
                    let name = "w\(index)-\(round)"
                    try hive.contribute(HealthCheck.self, name: name, scope: .singleton) { LabelledCheck(name) }
                    let added = try hive.resolveAll(HealthCheck.self).labels
                    if !added.contains(name) { wrong.append("after adding \(name): \(added)") }
                    if !hive.removeContribution(HealthCheck.self, name: name) { wrong.append("\(name) not removed") }
                    let removed = try hive.resolveAll(HealthCheck.self).labels
                    if removed.contains(name) { wrong.append("after removing \(name): \(removed)") }
                }
            } else {
                for _ in 0..<(rounds * 4) {
                    let labels = try hive.resolveAll(HealthCheck.self).labels
                    let added = labels.dropFirst(2)
                    let writersSeen = Set(added.map { $0.prefix { $0 != "-" } })
                    if Array(labels.prefix(2)) != ["first", "last"] || !added.allSatisfy({ $0.hasPrefix("w") })
                        || writersSeen.count != added.count || added.count > writers
                    {
                        wrong.append("\(labels)")
                    }
                }
            }
            return wrong
        }
        #expect(broken.flatMap { $0 }.isEmpty, "\(broken.flatMap { $0 }.prefix(5))")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["first", "last"], "every added contribution is gone")
    }
}
