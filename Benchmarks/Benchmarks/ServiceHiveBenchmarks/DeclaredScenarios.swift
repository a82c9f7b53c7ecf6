import Benchmark
import ServiceHive

// Registration by initializer and the check of declared dependencies. Scenario 29 resolves the services of 01, 02 and
// 03 registered by initializer, against the same written as closures (the ServiceHive rows of 01–03): a registration
// by initializer must cost within 5% of the closure. Scenario 30 checks 1,000 registrations that declare their
// dependencies, and validates the same: the check builds nothing, and should take under 1 ms and a hundredth of
// validation. Neither peer has an equivalent of either.

func declaredScenarios() {
    // MARK: 29 resolving a registration made by initializer

    let initializers = DeclaredFixtures.initializerHive()
    Scenario("29a transient resolve, by initializer").measure(.serviceHive) { benchmark in
        repeatedly(benchmark) { try! initializers.resolve(Transient.self) }
    }
    Scenario("29b cached singleton resolve, by initializer").measure(.serviceHive) { benchmark in
        repeatedly(benchmark) { try! initializers.resolve(Singleton.self) }
    }
    Scenario("29c transient with 3 singleton dependencies, by initializer").measure(.serviceHive) { benchmark in
        repeatedly(benchmark) { try! initializers.resolve(Composite.self) }
    }

    // MARK: 30 the check against validation

    // Each iteration is one whole check, or one whole validation, of the same 1,000 registrations.
    let declared = DeclaredFixtures.declaredHive(count: 1_000)
    Scenario("30a check() of 1,000 declared registrations", configuration: Configurations.perLongOperation)
        .measure(.serviceHive) { benchmark in
            repeatedly(benchmark) { declared.check() }
        }
    Scenario("30b validate() of the same 1,000 registrations", configuration: Configurations.perLongOperation)
        .measure(.serviceHive) { benchmark in
            repeatedly(benchmark) { declared.validate() }
        }
}
