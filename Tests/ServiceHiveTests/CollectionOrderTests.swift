import ServiceHive
import Support
import Testing

// A contribution removed while a resolve of its collection is under way is left out of that resolve, and the others
// keep their order: the cached ones stay in their places between those resolved after the lookup.

@Suite("Collections keep their order when a contribution goes during a resolve", .timeLimit(.minutes(5)))
struct CollectionOrderTests {
    @Test("resolveAllAsync keeps the order when a contribution's factory removes a later one")
    func asyncRemovalKeepsOrder() async throws {
        let hive = ServiceHive()
        let runs = Locked(0)
        // Weakly: the hive keeps the factory, which would otherwise keep the hive (LeakSanitizer reports the cycle).
        try hive.contribute(HealthCheck.self) { [weak hive] in
            // The second time it runs, `a` removes `c`, which the resolve has looked up but not yet resolved.
            if runs.increment() == 2 { _ = hive?.removeContribution(HealthCheck.self, name: "c") }
            return LabelledCheck("a")
        }
        try hive.contribute(HealthCheck.self, name: "c") { LabelledCheck("c") }
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("b") }
        try hive.contribute(HealthCheck.self) { LabelledCheck("e") }
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("d") }

        #expect(try hive.resolveAll(HealthCheck.self).labels == ["a", "c", "b", "e", "d"], "b and d are now cached")
        let resolved = try await within("the async resolve of the collection") {
            try await hive.resolveAllAsync(HealthCheck.self).labels
        }
        #expect(runs.current == 2)
        #expect(resolved == ["a", "b", "e", "d"], "c is gone, and d stays after e")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["a", "b", "e", "d"])
    }

    @Test("resolveAll keeps the order when a singleton it waits for on another thread is removed meanwhile")
    func syncRemovalWhileWaitingKeepsOrder() async throws {
        let hive = ServiceHive()
        let xRuns = Locked(0)
        let secondX = Gate()
        let building = Gate()
        let release = Gate()
        try hive.contribute(HealthCheck.self) {
            if xRuns.increment() == 2 { secondX.open() }
            return LabelledCheck("x")
        }
        try hive.contribute(HealthCheck.self, name: "slow", scope: .singleton) {
            building.open()
            guard release.wait() else { throw TimedOut(what: "the test to release the build", limit: waitLimit) }
            return LabelledCheck("slow")
        }
        try hive.contribute(HealthCheck.self, instance: LabelledCheck("b"))
        try hive.contribute(HealthCheck.self) { LabelledCheck("c") }
        try hive.contribute(HealthCheck.self, instance: LabelledCheck("d"))

        // Thread 0 builds `slow`; thread 1, once that build is under way, resolves the collection and waits for it.
        async let resolved = onThreads(2, "two resolves of the collection") { index -> [String] in
            if index == 1 {
                guard building.wait() else { throw TimedOut(what: "the build of slow", limit: waitLimit) }
            }
            return try hive.resolveAll(HealthCheck.self).labels
        }
        try await secondX.opened("the second resolve to pass x")
        try await Task.sleep(for: .milliseconds(50))  // Either way, the second resolve looked `slow` up before this.
        #expect(hive.removeContribution(HealthCheck.self, name: "slow"))
        release.open()
        let results = try await resolved
        #expect(results[1] == ["x", "b", "c", "d"], "slow is gone, and d stays after c")
        #expect(
            results[0] == ["x", "slow", "b", "c", "d"] || results[0] == ["x", "b", "c", "d"],
            "the building resolve keeps the order too")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["x", "b", "c", "d"])
    }
}
