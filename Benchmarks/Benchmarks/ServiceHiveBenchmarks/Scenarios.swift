import Benchmark
import Dependencies
import ServiceHive
import Swinject

// Every scenario, one block each: a `Scenario` with one `measure` per implementation that has an equivalent. This file
// holds resolving, overrides and registering (01–14); the later ones have a file per concern: `FeatureScenarios.swift`
// (forwarding, `Lazy`, property wrappers and async singletons, 15–18), `TraceScenarios.swift` (19),
// `FunctionScenarios.swift` (business functions, 20–21 and 27), `ComponentScenarios.swift` (22–24),
// `RemovalScenarios.swift` (unregistering and rolling back an install, 25–26) and `CollectionScenarios.swift`
// (resolving contributions, 28). To add a scenario, add a block with the next number to the file of its
// concern; its services go in `Services.swift` and its registrations in the fixtures; add it to `InstructionCounts`
// too when a count would explain it. `ResultsTable` puts every scenario of a run in the table of `README.md` by
// itself; a target for it goes in the table at the top of `Sources/ResultsTable/main.swift`.
//
// swift-dependencies reads each service the way its documentation shows at a use site, `@Dependency(\.key) var x`
// declared where it is needed: one declaration and one read per operation, the equivalent of one `resolve`.

func scenarios() {
    // MARK: 01 transient resolve, no dependencies

    do {
        let scenario = Scenario("01 transient resolve")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { LiveTransient() as any Transient }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Transient.self) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.standard
            repeatedly(benchmark) { floor.resolve(Transient.self) }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            repeatedly(benchmark) { () -> any Transient in
                @Dependency(\.makeTransient) var makeTransient
                return makeTransient()
            }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { container.resolve(Transient.self)! }
        }
    }

    // MARK: 02 singleton resolve

    do {
        let scenario = Scenario("02 singleton resolve")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.standard
            repeatedly(benchmark) { floor.resolve(Singleton.self) }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            repeatedly(benchmark) { () -> any Singleton in
                @Dependency(\.singleton) var singleton
                return singleton
            }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { container.resolve(Singleton.self)! }
        }
    }

    // MARK: 03 transient with 3 singleton dependencies

    do {
        let scenario = Scenario("03 transient with 3 singleton dependencies")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.composite() }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Composite.self) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.standard
            repeatedly(benchmark) { floor.resolve(Composite.self) }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            repeatedly(benchmark) { () -> any Composite in
                @Dependency(\.makeComposite) var makeComposite
                return makeComposite()
            }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { container.resolve(Composite.self)! }
        }
    }

    // MARK: 04 named resolve

    // swift-dependencies has no names: a second variant is a second key, which is scenario 01 again.
    do {
        let scenario = Scenario("04 named resolve")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { LiveNamed() as any Named }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Named.self, name: "special") }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { container.resolve(Named.self, name: "special")! }
        }
    }

    // MARK: 04b a named resolve among many names

    // The same resolve, with 1,000 named variants of the service registered: a registry that scans a service's names
    // shows here. Floor and Swinject hold the same 1,000 names.
    do {
        let scenario = Scenario("04b named resolve among 1,000 names")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { LiveNamed() as any Named }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.manyNames
            let name = ManyNames.resolved
            repeatedly(benchmark) { try! hive.resolve(Named.self, name: name) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.manyNames
            let name = ManyNames.resolved
            repeatedly(benchmark) { floor.resolve(Named.self, name: name) }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.manyNames
            let name = ManyNames.resolved
            repeatedly(benchmark) { container.resolve(Named.self, name: name)! }
        }
    }

    // MARK: 05 runtime arguments

    do {
        let scenario = Scenario("05a one runtime argument")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { count in LiveGreeting(count: count) as any Greeting }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { count in try! hive.resolve(Greeting.self, arguments: count) }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            repeatedly(benchmark) { (count: Int) -> any Greeting in
                @Dependency(\.makeGreeting) var makeGreeting
                return makeGreeting(count: count)
            }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { count in container.resolve(Greeting.self, argument: count)! }
        }
    }
    do {
        let scenario = Scenario("05b two runtime arguments")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { count in LiveGreeting(count: count, name: "Mimi") as any Greeting }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { count in try! hive.resolve(Greeting.self, arguments: count, "Mimi") }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            repeatedly(benchmark) { (count: Int) -> any Greeting in
                @Dependency(\.makeGreeting) var makeGreeting
                return makeGreeting(count: count, name: "Mimi")
            }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { count in container.resolve(Greeting.self, arguments: count, "Mimi")! }
        }
    }

    // MARK: 06 graph scope with a shared dependency

    // swift-dependencies has no per-resolve scope.
    do {
        let scenario = Scenario("06 graph with a shared dependency")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.root() }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Root.self) }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.standard
            repeatedly(benchmark) { container.resolve(Root.self)! }
        }
    }

    // MARK: 07 a singleton among 10 and among 10,000 registrations

    // `direct` reads the same `static let` as in 02: with no locator, the number of other services costs nothing.
    do {
        let scenario = Scenario("07a singleton among 10 registrations")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.small
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
    }
    do {
        let scenario = Scenario("07b singleton among 10,000 registrations")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.large
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.large
            repeatedly(benchmark) { floor.resolve(Singleton.self) }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.large
            repeatedly(benchmark) { container.resolve(Singleton.self)! }
        }
    }

    // MARK: 08 resolve inside an override

    // The override is in place for the whole iteration, 1,000 resolves. `direct` calls the mock's initializer, or
    // reads the singleton; Swinject's nearest equivalent is a child container that re-registers the service.
    do {
        let scenario = Scenario("08a overridden transient inside an override")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { MockTransient() as any Transient }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            hive.withOverrides {
                $0.register(Transient.self) { MockTransient() }
            } operation: {
                repeatedly(benchmark) { try! hive.resolve(Transient.self) }
            }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            withDependencies {
                $0.makeTransient = TransientFactory { MockTransient() }
            } operation: {
                repeatedly(benchmark) { () -> any Transient in
                    @Dependency(\.makeTransient) var makeTransient
                    return makeTransient()
                }
            }
        }
        scenario.measure(.swinject) { benchmark in
            let child = Containers.overridingChild
            repeatedly(benchmark) { child.resolve(Transient.self)! }
        }
    }
    do {
        let scenario = Scenario("08b singleton inside an override")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            hive.withOverrides {
                $0.register(Transient.self) { MockTransient() }
            } operation: {
                repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
            }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            withDependencies {
                $0.makeTransient = TransientFactory { MockTransient() }
            } operation: {
                repeatedly(benchmark) { () -> any Singleton in
                    @Dependency(\.singleton) var singleton
                    return singleton
                }
            }
        }
        scenario.measure(.swinject) { benchmark in
            let child = Containers.overridingChild
            repeatedly(benchmark) { child.resolve(Singleton.self)! }
        }
    }

    // A singleton built from an override, resolved again inside that override: the path a test with a mock takes on
    // every resolve. In 08c the override registers the singleton itself, as a `.singleton` of its own; in 08d a real
    // `.singleton`, `Dependent`, is built from the overridden transient, so the override builds and keeps its own
    // instance. The first resolve builds it; the others find it. Target: within 2.5× the plain resolve of 02.
    do {
        let scenario = Scenario("08c override registered as a singleton, inside the override")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            hive.withOverrides {
                $0.register(Singleton.self, scope: .singleton) { MockSingleton() }
            } operation: {
                repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
            }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            withDependencies {
                $0.singleton = MockSingleton()
            } operation: {
                repeatedly(benchmark) { () -> any Singleton in
                    @Dependency(\.singleton) var singleton
                    return singleton
                }
            }
        }
        scenario.measure(.swinject) { benchmark in
            let child = Containers.overridingSingletonChild
            repeatedly(benchmark) { child.resolve(Singleton.self)! }
        }
    }
    // Neither peer has an equivalent: swift-dependencies keeps the live singleton it built first, whatever is
    // overridden later, and Swinject caches what a child container builds from its parent's registration in the
    // parent, outside the child.
    do {
        let scenario = Scenario("08d singleton built from an overridden service, inside the override")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.withDependent
            hive.withOverrides {
                $0.register(Transient.self) { MockTransient() }
            } operation: {
                repeatedly(benchmark) { try! hive.resolve(Dependent.self) }
            }
        }
    }
    // 08d warmed: the singleton was resolved, and cached, outside the override first, as a suite's shared setup or an
    // app's startup does; inside, the cached instance is the world's and the override keeps its own. The test with a
    // mock that a warmed app runs on every resolve. Target: within 2.5× the plain resolve of 02.
    do {
        let scenario = Scenario("08f singleton built from an overridden service, warmed outside, inside the override")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.withWarmedDependent
            hive.withOverrides {
                $0.register(Transient.self) { MockTransient() }
            } operation: {
                repeatedly(benchmark) { try! hive.resolve(Dependent.self) }
            }
        }
    }
    // A singleton that no override replaces, inside three nested overrides, as a suite's override, a test's and a
    // helper's nest: 08b with two more layers. Swinject's equivalent is three nested child containers.
    do {
        let scenario = Scenario("08e singleton inside three nested overrides")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            let mock: (inout ServiceHive.Overrides) -> Void = { $0.register(Transient.self) { MockTransient() } }
            hive.withOverrides(mock) {
                hive.withOverrides(mock) {
                    hive.withOverrides(mock) {
                        repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
                    }
                }
            }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            let mock: (inout DependencyValues) -> Void = { $0.makeTransient = TransientFactory { MockTransient() } }
            withDependencies(mock) {
                withDependencies(mock) {
                    withDependencies(mock) {
                        repeatedly(benchmark) { () -> any Singleton in
                            @Dependency(\.singleton) var singleton
                            return singleton
                        }
                    }
                }
            }
        }
        scenario.measure(.swinject) { benchmark in
            let child = Containers.nestedOverridingChild
            repeatedly(benchmark) { child.resolve(Singleton.self)! }
        }
    }

    // MARK: 09 registering, per registration

    // Each iteration registers 1,000 distinct types into a new, empty registry; times are per registration. `direct`
    // visits the same types and makes the same factory closures but stores them nowhere: the harness's own share.
    // swift-dependencies has nothing to register: a key is a type.
    do {
        let scenario = Scenario("09 register, per registration", configuration: Configurations.perThousandInState)
        scenario.measure(.direct) { benchmark in
            var registrar = DirectRegistrar()
            benchmark.startMeasurement()
            registerDistinctTypes(benchmark.scaledIterations.count, into: &registrar)
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
        scenario.measure(.serviceHive) { benchmark in
            var registrar = HiveRegistrar(hive: ServiceHive())
            benchmark.startMeasurement()
            registerDistinctTypes(benchmark.scaledIterations.count, into: &registrar)
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
        scenario.measure(.floor) { benchmark in
            var registrar = FloorRegistrar(floor: Floor())
            benchmark.startMeasurement()
            registerDistinctTypes(benchmark.scaledIterations.count, into: &registrar)
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
        scenario.measure(.swinject) { benchmark in
            var registrar = ContainerRegistrar(container: Container())
            benchmark.startMeasurement()
            registerDistinctTypes(benchmark.scaledIterations.count, into: &registrar)
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
    }

    // MARK: 10 a singleton on 2 threads at once

    // Both threads resolve together, so the reported time is per pair of concurrent resolves: a perfectly parallel
    // locator would show one resolve's time. `direct` is the same two-thread work on the `static let`. Swinject
    // needs `synchronize()` to be safe here.
    do {
        let scenario = Scenario(
            "10 singleton resolves on 2 threads at once, per pair", configuration: Configurations.perConcurrentPair)
        scenario.measure(.direct) { benchmark in
            let count = benchmark.scaledIterations.count
            ThreadPair.shared.run {
                for _ in 0..<count { blackHole(Direct.singleton) }
            }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            let count = benchmark.scaledIterations.count
            ThreadPair.shared.run {
                for _ in 0..<count { blackHole(try! hive.resolve(Singleton.self)) }
            }
        }
        scenario.measure(.floor) { benchmark in
            let floor = Floors.standard
            let count = benchmark.scaledIterations.count
            ThreadPair.shared.run {
                for _ in 0..<count { blackHole(floor.resolve(Singleton.self)) }
            }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            let count = benchmark.scaledIterations.count
            ThreadPair.shared.run {
                for _ in 0..<count {
                    @Dependency(\.singleton) var singleton
                    blackHole(singleton)
                }
            }
        }
        scenario.measure(.swinject) { benchmark in
            let resolver = Containers.synchronized
            let count = benchmark.scaledIterations.count
            ThreadPair.shared.run {
                for _ in 0..<count { blackHole(resolver.resolver.resolve(Singleton.self)!) }
            }
        }
    }

    // MARK: 11 validate() of 1,000 registrations

    do {
        let scenario = Scenario("11 validate() of 1,000 registrations", configuration: Configurations.whole)
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.thousand
            benchmark.startMeasurement()
            blackHole(hive.validate())
        }
    }

    // MARK: 12 a child hive per request

    // A request makes a child hive that provides its `Session`, and resolves one transient built with it. `direct`
    // allocates the equivalent by hand: an object holding the session, which builds the handler.
    do {
        let scenario = Scenario("12 child hive per request")
        scenario.measure(.direct) { benchmark in
            let session: any Session = LiveSession()
            repeatedly(benchmark) { RequestServices(session: session).handler() }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.standard
            let session: any Session = LiveSession()
            repeatedly(benchmark) { () -> any RequestHandler in
                let request = hive.child { $0.provide(Session.self, session) }
                return try! request.resolve(RequestHandler.self)
            }
        }
    }

    // MARK: 13 and 14 memory

    // The bytes a hive keeps for its registrations and for its cached singletons, measured as the net bytes left
    // allocated by the measured region.
    for (letter, count) in [("a", 10_000), ("b", 100_000)] {
        let label = count == 10_000 ? "10,000" : "100,000"
        Scenario("13\(letter) memory of \(label) registrations", configuration: Configurations.memory)
            .measure(.serviceHive) { benchmark in
                var registrar = HiveRegistrar(hive: ServiceHive())
                benchmark.startMeasurement()
                registerDistinctTypes(count, into: &registrar)
                benchmark.stopMeasurement()
                blackHole(registrar)
            }
        Scenario("14\(letter) memory of \(label) cached singletons", configuration: Configurations.memory)
            .measure(.serviceHive) { benchmark in
                var registrar = SingletonRegistrar(hive: ServiceHive())
                registerDistinctTypes(count, into: &registrar)
                benchmark.startMeasurement()
                registrar.resolveAll()
                benchmark.stopMeasurement()
                blackHole(registrar)
            }
    }
}
