import Benchmark
import Dependencies
import ServiceHive
import Swinject

// Issue 14's capabilities, each against the plain singleton resolve of scenario 02: a forwarded resolve, a `Lazy`
// after its first use, a read of a property wrapper, and a cached async singleton. `direct` reads a `static let`, as
// in 02. Each resolves a singleton that is already built, so that the difference to 02 is the capability alone.

func featureScenarios() {
    // MARK: 15 forwarded singleton resolve

    // `LiveStore` is a `.singleton` registered under its class and forwarded to `StoreReader`; Swinject's equivalent
    // is `.implements(StoreReader.self)`. swift-dependencies has no forwarding: a second key is scenario 02 again.
    do {
        let scenario = Scenario("15 forwarded singleton resolve")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.storeReader }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.features
            repeatedly(benchmark) { try! hive.resolve(StoreReader.self) }
        }
        scenario.measure(.swinject) { benchmark in
            let container = Containers.features
            repeatedly(benchmark) { container.resolve(StoreReader.self)! }
        }
    }

    // MARK: 16 a Lazy after its first use

    // The `Lazy` is resolved and read once before the measurement; each operation reads its instance. Swinject's
    // `Lazy` keeps its instance in a plain `var`, without a lock: it is not safe to share across threads.
    do {
        let scenario = Scenario("16 Lazy singleton after first use")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let lazy = try! Hives.features.resolve(ServiceHive.Lazy<Singleton>.self)
            _ = try! lazy.instance
            repeatedly(benchmark) { try! lazy.instance }
        }
        scenario.measure(.swinject) { benchmark in
            let lazy = Containers.features.resolve(Swinject.Lazy<Singleton>.self)!
            _ = lazy.instance
            repeatedly(benchmark) { lazy.instance }
        }
    }

    // MARK: 17 property-wrapper reads

    // The owner is made once, before the measurement; each operation reads its property. `@Injected` resolved when
    // the owner was made; `@LazyInjected` resolved on the first read, before the measurement. swift-dependencies'
    // `@Dependency` reads its value on each access, as its documentation says.
    do {
        let scenario = Scenario("17a @Injected read")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let owner = InjectedOwner()
            repeatedly(benchmark) { owner.singleton }
        }
        scenario.measure(.swiftDependencies) { benchmark in
            let owner = DependencyOwner()
            repeatedly(benchmark) { owner.singleton }
        }
    }
    do {
        let scenario = Scenario("17b @LazyInjected read after first use")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let owner = LazyInjectedOwner()
            _ = owner.singleton
            repeatedly(benchmark) { owner.singleton }
        }
    }

    // MARK: 18 async singleton resolve

    // A `.singleton` with an `async` factory, built before the measurement, resolved with `resolveAsync` from a task.
    // `direct` reads a `static let` from the same kind of task. No peer has async factories.
    do {
        let scenario = Scenario("18 async singleton resolveAsync")
        scenario.measure(.direct) { benchmark async in
            benchmark.startMeasurement()
            repeatedly(benchmark) { Direct.asyncSingleton }
            benchmark.stopMeasurement()
        }
        scenario.measure(.serviceHive) { benchmark async in
            let hive = Hives.features
            _ = try! await hive.resolveAsync(AsyncSingleton.self)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try! await hive.resolveAsync(AsyncSingleton.self)) }
            benchmark.stopMeasurement()
        }
    }
}

/// Owns a service through `@Injected`, resolved from `Hives.features` when the owner is made.
struct InjectedOwner {
    @ServiceHive.Injected(hive: Hives.features) var singleton: any Singleton
}

/// Owns a service through `@LazyInjected`, resolved from `Hives.features` on the first read.
struct LazyInjectedOwner {
    @ServiceHive.LazyInjected(hive: Hives.features) var singleton: any Singleton
}

/// Owns a service through swift-dependencies' `@Dependency`.
struct DependencyOwner {
    @Dependency(\.singleton) var singleton
}
