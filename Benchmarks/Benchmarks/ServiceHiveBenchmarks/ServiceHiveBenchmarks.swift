import Benchmark
import ServiceHive
import Swinject

// Each scenario runs for ServiceHive, Swinject 2.10.0 and, where it applies, the hand-written floor, in one run.
// Names are "NN scenario · implementation"; `ResultsTable` groups them by scenario for the README.
//
// Resolve scenarios loop `benchmark.scaledIterations` times with a `.kilo` scaling factor, so package-benchmark
// reports time and allocations per resolve.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(Benchmarks.duration),
        maxIterations: Benchmarks.iterations
    )

    // MARK: 01 transient resolve, no dependencies

    Benchmark("01 transient resolve · ServiceHive") { benchmark in
        let hive = Hives.standard
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Transient.self)) }
    }
    Benchmark("01 transient resolve · Swinject") { benchmark in
        let container = Containers.standard
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Transient.self)!) }
    }
    Benchmark("01 transient resolve · floor") { benchmark in
        let floor = Floors.standard
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(Transient.self)) }
    }

    // MARK: 02 singleton resolve

    Benchmark("02 singleton resolve · ServiceHive") { benchmark in
        let hive = Hives.standard
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Singleton.self)) }
    }
    Benchmark("02 singleton resolve · Swinject") { benchmark in
        let container = Containers.standard
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Singleton.self)!) }
    }
    Benchmark("02 singleton resolve · floor") { benchmark in
        let floor = Floors.standard
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(Singleton.self)) }
    }

    // MARK: 03 transient with 3 singleton dependencies

    Benchmark("03 transient with 3 singleton dependencies · ServiceHive") { benchmark in
        let hive = Hives.standard
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Composite.self)) }
    }
    Benchmark("03 transient with 3 singleton dependencies · Swinject") { benchmark in
        let container = Containers.standard
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Composite.self)!) }
    }
    Benchmark("03 transient with 3 singleton dependencies · floor") { benchmark in
        let floor = Floors.standard
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(Composite.self)) }
    }

    // MARK: 04 named resolve

    Benchmark("04 named resolve · ServiceHive") { benchmark in
        let hive = Hives.standard
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Named.self, name: "special")) }
    }
    Benchmark("04 named resolve · Swinject") { benchmark in
        let container = Containers.standard
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Named.self, name: "special")!) }
    }

    // MARK: 05 runtime arguments

    Benchmark("05a one runtime argument · ServiceHive") { benchmark in
        let hive = Hives.standard
        for count in benchmark.scaledIterations { blackHole(try! hive.resolve(Greeting.self, arguments: count)) }
    }
    Benchmark("05a one runtime argument · Swinject") { benchmark in
        let container = Containers.standard
        for count in benchmark.scaledIterations { blackHole(container.resolve(Greeting.self, argument: count)!) }
    }
    Benchmark("05b two runtime arguments · ServiceHive") { benchmark in
        let hive = Hives.standard
        for count in benchmark.scaledIterations {
            blackHole(try! hive.resolve(Greeting.self, arguments: count, "Mimi"))
        }
    }
    Benchmark("05b two runtime arguments · Swinject") { benchmark in
        let container = Containers.standard
        for count in benchmark.scaledIterations {
            blackHole(container.resolve(Greeting.self, arguments: count, "Mimi")!)
        }
    }

    // MARK: 06 graph scope with a shared dependency

    Benchmark("06 graph with a shared dependency · ServiceHive") { benchmark in
        let hive = Hives.standard
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Root.self)) }
    }
    Benchmark("06 graph with a shared dependency · Swinject") { benchmark in
        let container = Containers.standard
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Root.self)!) }
    }

    // MARK: 07 a singleton among 10,000 registrations

    Benchmark("07a singleton among 10 registrations · ServiceHive") { benchmark in
        let hive = Hives.small
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Singleton.self)) }
    }
    Benchmark("07b singleton among 10,000 registrations · ServiceHive") { benchmark in
        let hive = Hives.large
        for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Singleton.self)) }
    }
    Benchmark("07b singleton among 10,000 registrations · Swinject") { benchmark in
        let container = Containers.large
        for _ in benchmark.scaledIterations { blackHole(container.resolve(Singleton.self)!) }
    }
    Benchmark("07b singleton among 10,000 registrations · floor") { benchmark in
        let floor = Floors.large
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(Singleton.self)) }
    }

    // MARK: 08 resolve inside an override scope

    Benchmark("08a overridden transient inside a scope · ServiceHive") { benchmark in
        let hive = Hives.standard
        try! hive.withOverrides {
            try $0.register(Transient.self) { MockTransient() }
        } operation: {
            for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Transient.self)) }
        }
    }
    Benchmark("08a overridden transient inside a scope · Swinject child container") { benchmark in
        let child = Containers.overridingChild
        for _ in benchmark.scaledIterations { blackHole(child.resolve(Transient.self)!) }
    }
    Benchmark("08b singleton inside a scope · ServiceHive") { benchmark in
        let hive = Hives.standard
        try! hive.withOverrides {
            try $0.register(Transient.self) { MockTransient() }
        } operation: {
            for _ in benchmark.scaledIterations { blackHole(try! hive.resolve(Singleton.self)) }
        }
    }
    Benchmark("08b singleton inside a scope · Swinject child container") { benchmark in
        let child = Containers.overridingChild
        for _ in benchmark.scaledIterations { blackHole(child.resolve(Singleton.self)!) }
    }

    // MARK: 09 10,000 registrations

    let registrations = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(Benchmarks.duration),
        maxIterations: min(Benchmarks.iterations, 30)
    )
    Benchmark("09 10,000 registrations · ServiceHive", configuration: registrations) { benchmark in
        var registrar = HiveRegistrar(hive: ServiceHive())
        benchmark.startMeasurement()
        registerDistinctTypes(10_000, into: &registrar)
        benchmark.stopMeasurement()
        blackHole(registrar)
    }
    Benchmark("09 10,000 registrations · Swinject", configuration: registrations) { benchmark in
        var registrar = ContainerRegistrar(container: Container())
        benchmark.startMeasurement()
        registerDistinctTypes(10_000, into: &registrar)
        benchmark.stopMeasurement()
        blackHole(registrar)
    }
    Benchmark("09 10,000 registrations · floor", configuration: registrations) { benchmark in
        var registrar = FloorRegistrar(floor: Floor())
        benchmark.startMeasurement()
        registerDistinctTypes(10_000, into: &registrar)
        benchmark.stopMeasurement()
        blackHole(registrar)
    }

    // MARK: 10 singleton resolves from 2 threads at once

    // Each thread resolves `scaledIterations` times, together, so the reported time is per pair of concurrent
    // resolves: a perfectly parallel locator would show one resolve's time.
    let concurrent = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .mega,
        maxDuration: .seconds(Benchmarks.duration),
        maxIterations: Benchmarks.iterations
    )
    Benchmark("10 singleton resolves on 2 threads at once · ServiceHive", configuration: concurrent) { benchmark in
        let hive = Hives.standard
        let iterations = benchmark.scaledIterations.count
        ThreadPair.shared.run {
            for _ in 0..<iterations { blackHole(try! hive.resolve(Singleton.self)) }
        }
    }
    Benchmark("10 singleton resolves on 2 threads at once · Swinject", configuration: concurrent) { benchmark in
        let resolver = Containers.synchronized
        let iterations = benchmark.scaledIterations.count
        ThreadPair.shared.run {
            for _ in 0..<iterations { blackHole(resolver.resolver.resolve(Singleton.self)!) }
        }
    }
    Benchmark("10 singleton resolves on 2 threads at once · floor", configuration: concurrent) { benchmark in
        let floor = Floors.standard
        let iterations = benchmark.scaledIterations.count
        ThreadPair.shared.run {
            for _ in 0..<iterations { blackHole(floor.resolve(Singleton.self)) }
        }
    }

    // MARK: 11 validate() of 1,000 registrations

    Benchmark("11 validate() of 1,000 registrations · ServiceHive", configuration: registrations) { benchmark in
        let hive = Hives.thousand
        benchmark.startMeasurement()
        blackHole(hive.validate())
    }

    memoryBenchmarks()
}

/// Memory: the bytes a hive keeps for its registrations and for its cached singletons, measured as the net bytes
/// left allocated by the measured region. The warm-up iteration instantiates the generated types' metadata, so
/// that it is not counted.
func memoryBenchmarks() {
    let memory = Benchmark.Configuration(
        metrics: [.memoryLeakedBytes, .mallocFreeDelta],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(Benchmarks.duration),
        maxIterations: 3
    )
    for count in [10_000, 100_000] {
        let label = count == 10_000 ? "10,000" : "100,000"
        Benchmark("12 memory of \(label) registrations · ServiceHive", configuration: memory) { benchmark in
            var registrar = HiveRegistrar(hive: ServiceHive())
            benchmark.startMeasurement()
            registerDistinctTypes(count, into: &registrar)
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
        Benchmark("13 memory of \(label) cached singletons · ServiceHive", configuration: memory) { benchmark in
            var registrar = SingletonRegistrar(hive: ServiceHive())
            registerDistinctTypes(count, into: &registrar)
            benchmark.startMeasurement()
            registrar.resolveAll()
            benchmark.stopMeasurement()
            blackHole(registrar)
        }
    }
}

/// How long and how many times each benchmark runs; `BENCHMARK_SMOKE=1` makes a short pass for CI.
enum Benchmarks {
    static let smoke = ProcessInfoEnvironment.value(for: "BENCHMARK_SMOKE") != nil
    static var duration: Int64 { smoke ? 1 : 3 }
    static var iterations: Int { smoke ? 5 : 1_000 }
}
