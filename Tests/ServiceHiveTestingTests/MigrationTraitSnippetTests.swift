import ServiceHive
import ServiceHiveTesting
import Testing

// The strict trait of the article "Migrating from Other Locators", compiled here, where the `ServiceHiveTesting`
// library is linked. `DocumentationSnippetTests` checks that the article and this region stay the same.

/// The app's hive in the article's example: a real forecast for today and for tomorrow.
enum Forecasts {
    static let hive: ServiceHive = {
        let hive = ServiceHive()
        try! hive.register(Weather.self) { FixedWeather(forecast: "real") }
        try! hive.register(Weather.self, name: "tomorrow") { FixedWeather(forecast: "real tomorrow") }
        return hive
    }()
}

@Suite("Migration article: the strict trait", .timeLimit(.minutes(5)))
struct MigrationTraitSnippetTests {
    // snippet: migration-strict-trait
    @Test(
        "a strict trait fails the test on a service it did not override",
        .serviceOverrides(hive: Forecasts.hive, strict: true) {
            $0.register(Weather.self) { FixedWeather(forecast: "sunny") }
        })
    func strictTrait() throws {
        let weather = try Forecasts.hive.resolve(Weather.self)  // the mock
        #expect(throws: ServiceHiveError.self) { try Forecasts.hive.resolve(Weather.self, name: "tomorrow") }
        #expect(weather.forecast == "sunny")
        let thrown = Result { try Forecasts.hive.resolve(Weather.self, name: "tomorrow") }
        guard case .failure(ServiceHiveError.notOverridden(let key, chain: [])) = thrown else {
            Issue.record("expected notOverridden, got \(thrown)")
            return
        }
        #expect(key == ServiceHive.ServiceKey(Weather.self, name: "tomorrow"))
    }
    // end-snippet

    @Test("outside the trait, the same hive resolves its real services")
    func outside() throws {
        #expect(try Forecasts.hive.resolve(Weather.self, name: "tomorrow").forecast == "real tomorrow")
    }
}
