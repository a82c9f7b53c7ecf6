import ServiceHive
import ServiceHiveTesting
import Support
import Testing

protocol Weather: Sendable {
    var forecast: String { get }
}

struct FixedWeather: Weather {
    let forecast: String
}

/// Resolves `Weather` from the shared hive many times with suspension points in between, and reports every
/// forecast that differs from `expected`.
func forecastsOtherThan(_ expected: String, hive: ServiceHive = .shared) async throws -> [String] {
    var others: [String] = []
    for _ in 0..<200 {
        let forecast = try hive.resolve(Weather.self).forecast
        if forecast != expected { others.append(forecast) }
        await Task.yield()
    }
    return others
}

/// Tests that run in parallel, each with its own override of the same service on the shared hive. If a scope
/// leaked into another test, one of them would see a forecast other than its own.
///
/// These catch a leak only when the tests run at the same time, which `--no-parallel` stops; the first test runs the
/// same scopes at the same time inside itself, whatever the runner does.
@Suite("The serviceOverrides trait isolates tests that run in parallel", .timeLimit(.minutes(5)))
struct ServiceOverridesTraitTests {
    @Test("the trait's scopes, entered by tasks of one test at the same time, each see only their own override")
    func isolatedBodiesAtOnce() async throws {
        let test = try #require(Test.current)
        let forecasts = ["sunny", "rainy", "snowy", "windy"]
        for round in 0..<5 {
            let others = try await withThrowingTaskGroup(of: [String].self) { group in
                for (index, forecast) in (forecasts + forecasts).enumerated() {
                    group.addTask {
                        let trait: ServiceOverridesTrait = .serviceOverrides {
                            $0.register(Weather.self) { FixedWeather(forecast: forecast) }
                        }
                        let others = Locked<[String]?>(nil)  // nil until the body has run
                        try await trait.provideScope(for: test, testCase: nil) {
                            let seen = try await forecastsOtherThan(forecast)
                            others.withLock { $0 = seen }
                        }
                        guard let seen = others.current else { return ["task \(index): the scope never ran its body"] }
                        return seen.map { "task \(index) expected \(forecast), saw \($0)" }
                    }
                }
                group.addTask {
                    var seen: [String] = []
                    for _ in 0..<200 {
                        if ServiceHive.shared.isRegistered(Weather.self) { seen.append("a task without the trait") }
                        await Task.yield()
                    }
                    return seen
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(others.isEmpty, "round \(round): \(others.prefix(10))")
        }
    }

    @Test(.serviceOverrides { $0.register(Weather.self) { FixedWeather(forecast: "sunny") } })
    func sunny() async throws {
        #expect(try await forecastsOtherThan("sunny").isEmpty)
    }

    @Test(.serviceOverrides { $0.register(Weather.self) { FixedWeather(forecast: "rainy") } })
    func rainy() async throws {
        #expect(try await forecastsOtherThan("rainy").isEmpty)
    }

    @Test(.serviceOverrides { $0.register(Weather.self) { FixedWeather(forecast: "snowy") } })
    func snowy() async throws {
        #expect(try await forecastsOtherThan("snowy").isEmpty)
    }

    @Test(
        .serviceOverrides { $0.register(Weather.self) { FixedWeather(forecast: "windy") } },
        arguments: 0..<8
    )
    func windy(run: Int) async throws {
        #expect(try await forecastsOtherThan("windy").isEmpty, "run \(run)")
    }

    @Test("a test without the trait sees no override, even while the others run")
    func untouched() async throws {
        for _ in 0..<200 {
            #expect(!ServiceHive.shared.isRegistered(Weather.self))
            await Task.yield()
        }
    }
}

/// A hive of this suite's own, to show the `hive:` argument.
let forecastHive: ServiceHive = {
    let hive = ServiceHive()
    try! hive.register(Weather.self, scope: .singleton) { FixedWeather(forecast: "live") }
    return hive
}()

@Suite(
    "The trait on a suite gives each test its own scope, on the hive passed",
    .timeLimit(.minutes(5)),
    .serviceOverrides(hive: forecastHive) { $0.register(Weather.self) { FixedWeather(forecast: "suite") } }
)
struct SuiteLevelTraitTests {
    @Test("a test of the suite sees the suite's override on the hive passed, and the shared hive is untouched")
    func seesSuiteOverride() async throws {
        #expect(try await forecastsOtherThan("suite", hive: forecastHive).isEmpty)
        #expect(!ServiceHive.shared.isRegistered(Weather.self))
    }

    @Test("a test can nest its own scope inside the suite's")
    func nested() throws {
        let forecast = try forecastHive.withOverrides {
            $0.register(Weather.self) { FixedWeather(forecast: "nested") }
        } operation: {
            try forecastHive.resolve(Weather.self).forecast
        }
        #expect(forecast == "nested")
        #expect(try forecastHive.resolve(Weather.self).forecast == "suite")
    }
}
