import Benchmark
import ServiceHive

// Taking registrations away: unregistering many named variants of one service, and rolling back the install of a
// large module. Each iteration is one whole operation, timed from its start to its end, with no warm-up, so that an
// implementation that takes seconds runs once, not twice. Neither peer has an equivalent: Swinject can only remove
// every registration at once, swift-dependencies registers nothing. `direct` has no work to compare: there is nothing
// to remove without a locator. The floor does the same with a dictionary keyed by type and name.

func removalScenarios() {
    // MARK: 25 unregistering named variants

    // N named variants of `Named`, registered before the measurement, are unregistered one by one in the order they
    // were registered. Unregistering is amortized O(1) when 16,000 take 4× what 4,000 take, not 16×.
    for (letter, count) in [("a", 4_000), ("b", 16_000)] {
        let scenario = Scenario(
            "25\(letter) unregister \(count == 4_000 ? "4,000" : "16,000") named variants",
            configuration: Configurations.wholeLong)
        scenario.measure(.serviceHive) { benchmark in
            let names = variantNames(count)
            let hive = ScaleFixtures.hive(withVariantsNamed: names)
            benchmark.startMeasurement()
            for name in names { blackHole(hive.unregister(Named.self, name: name)) }
            benchmark.stopMeasurement()
            blackHole(hive)
        }
        scenario.measure(.floor) { benchmark in
            let names = variantNames(count)
            let floor = Floor()
            for name in names { floor.register(Named.self, name: name) { LiveNamed() } }
            benchmark.startMeasurement()
            for name in names { floor.unregister(Named.self, name: name) }
            benchmark.stopMeasurement()
            blackHole(floor)
        }
    }

    // MARK: 26 rolling back an install

    // A module registers 10,000 services, 5,000 distinct types and 5,000 named variants of one more, into a new
    // hive. In 26a it starts; in 26b it then fails in `start`, and the install is rolled back. Each is timed from the
    // call to `install` to its return, so 26b − 26a is the rollback. The floor registers the same into its
    // dictionaries, remembering how to undo each registration, and in 26b undoes them all, newest first.
    for (letter, fails) in [("a", false), ("b", true)] {
        let failure = fails ? ", failing in start and rolled back" : ""
        let scenario = Scenario(
            "26\(letter) install of 10,000 registrations\(failure)", configuration: Configurations.wholeLong)
        scenario.measure(.serviceHive) { benchmark async in
            let hive = ServiceHive()
            let module = LargeModule(count: 10_000, failsToStart: fails)
            benchmark.startMeasurement()
            blackHole(try? await hive.install([module]))
            benchmark.stopMeasurement()
            blackHole(hive)
        }
        scenario.measure(.floor) { benchmark in
            var install = FloorInstall(floor: Floor())
            benchmark.startMeasurement()
            install.registerLargeModule(count: 10_000)
            if fails { install.rollBack() }
            benchmark.stopMeasurement()
            blackHole(install)
        }
    }
}
