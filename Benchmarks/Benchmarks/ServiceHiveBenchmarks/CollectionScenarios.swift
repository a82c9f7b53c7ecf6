import Benchmark
import ServiceHive

// Resolving a collection: the contributions that modules made to one protocol, returned together. Neither peer has an
// equivalent: Swinject and swift-dependencies resolve one implementation per key, and a collection is a list the
// caller keeps by hand, which is what `direct` reads. The floor keeps that list in its locked dictionary.

func collectionScenarios() {
    // MARK: 28 resolveAll of 10 cached singletons

    // Ten singleton contributions, built before the measurement; each operation resolves the whole collection. Ten
    // single resolves of a cached singleton would cost ten times scenario 02; one lookup for the collection costs far
    // less.
    do {
        let scenario = Scenario("28 resolveAll of 10 cached singletons")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.plugins }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.contributions
            repeatedly(benchmark) { try! hive.resolveAll(Plugin.self) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.contributions
            repeatedly(benchmark) { floor.resolveAll(Plugin.self) }
        }
    }
}

extension Hives {
    /// Ten singleton contributions to the collection of `Plugin`, resolved and cached.
    static let contributions = ScaleFixtures.hive(withContributions: 10)
}

extension Floors {
    /// The collection of `Plugin`: ten instances in an array.
    static let contributions: Floor = {
        let floor = Floor()
        floor.register(collectionOf: Plugin.self, (0..<10).map { _ in LivePlugin() as any Plugin })
        return floor
    }()
}
