import ServiceHive
import ServiceHiveTesting
import Support
import Testing

/// A module, as an app's wiring installs it into the hive it is given.
private struct WeatherModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Weather.self) { FixedWeather(forecast: "cloudy") }
    }
}

@Suite("The testHive trait gives each test case a new hive with overrides", .timeLimit(.minutes(5)))
struct TestHiveTraitTests {
    @Test(
        "each test case gets a new, empty hive, into which the app's modules install again",
        .testHive(), arguments: 0..<8)
    func newHivePerCase(index: Int) async throws {
        let hive = try TestHiveTrait.current
        #expect(hive.registrations.isEmpty)
        // Installing the same module into a shared hive would fail with alreadyRegistered.
        try await hive.install([WeatherModule()])
        #expect(try hive.resolve(Weather.self).forecast == "cloudy")
        await hive.shutdown()
    }

    @Test(
        "the overrides apply to the test's hive, over the modules installed into it, in child tasks too",
        .testHive { $0.register(Weather.self) { FixedWeather(forecast: "stormy") } })
    func overridesApply() async throws {
        let hive = try TestHiveTrait.current
        try await hive.install([WeatherModule()])
        #expect(try await forecastsOtherThan("stormy", hive: hive).isEmpty)
        let inChild = try await within("a resolve in a child task") {
            try await Task { try hive.resolve(Weather.self).forecast }.value
        }
        #expect(inChild == "stormy")
        #expect(try TestHiveTrait.current === hive)
    }

    @Test(
        "a strict test hive fails a resolve that no override answers",
        .testHive(strict: true) { $0.register(Weather.self) { FixedWeather(forecast: "foggy") } })
    func strict() async throws {
        let hive = try TestHiveTrait.current
        try hive.register(String.self) { "real" }
        #expect(try hive.resolve(Weather.self).forecast == "foggy")
        let refused = #expect(throws: ServiceHiveError.self) { try hive.resolve(String.self) }
        guard case .notOverridden = refused else {
            Issue.record("expected notOverridden, got \(String(describing: refused))")
            return
        }
    }

    @Test("outside a test with the trait, current throws an error that says how to fix it")
    func missing() {
        let missing = #expect(throws: TestHiveTrait.Missing.self) { try TestHiveTrait.current }
        #expect(
            missing?.description
                == "TestHiveTrait.current was read outside a test with the .testHive trait, or in a detached task. "
                + "To fix, add .testHive { … } to the test or to its suite, and read it from the test's own task.")
    }
}

@Suite(
    "The testHive trait on a suite", .testHive { $0.register(Weather.self) { FixedWeather(forecast: "hail") } },
    .timeLimit(.minutes(5)))
struct TestHiveSuiteTests {
    @Test("every test of the suite has its own hive, with the suite's overrides", arguments: 0..<4)
    func perTest(index: Int) async throws {
        let hive = try TestHiveTrait.current
        try hive.register(Int.self) { index }  // would throw alreadyRegistered in a hive shared by two cases
        #expect(try hive.resolve(Int.self) == index)
        #expect(try hive.resolve(Weather.self).forecast == "hail")
    }
}
