import Benchmark

// The entry point package-benchmark looks for. The scenarios themselves are in `Scenarios.swift` and the files it
// lists.
//
// Every scenario runs each implementation in the same process, in one run: `direct` (the same work with no locator,
// see `Direct.swift`), ServiceHive, the hand-written `floor` (see `Floor.swift`, `FunctionScenarios.swift` and
// `ComponentScenarios.swift`), swift-dependencies 1.17.1 (see `SwiftDependencies.swift`), Swinject 2.10.0 (see
// `Fixtures.swift`) and Foundation's `NotificationCenter`, each where it has an equivalent. Names are
// "NN scenario · implementation"; `ResultsTable` groups them by scenario for `README.md`.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Configurations.perOperation
    scenarios()
    featureScenarios()
    traceScenarios()
    functionScenarios()
    componentScenarios()
    removalScenarios()
    collectionScenarios()
    declaredScenarios()
}

/// How long and how many times each benchmark runs; `BENCHMARK_SMOKE=1` makes a short pass for CI.
enum Benchmarks {
    static let smoke = ProcessInfoEnvironment.value(for: "BENCHMARK_SMOKE") != nil
    static var duration: Int64 { smoke ? 1 : 3 }
    static var iterations: Int { smoke ? 5 : 1_000 }
}

/// The ways scenarios are measured.
enum Configurations {
    /// Each iteration repeats the operation 1,000 times (`.kilo`), so times and allocations are per operation.
    static var perOperation: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .nanoseconds,
            warmupIterations: 3,
            scalingFactor: .kilo,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: Benchmarks.iterations
        )
    }

    /// Each iteration runs on two threads at once, each repeating the operation 1,000,000 times (`.mega`), so times
    /// are per pair of concurrent operations: a perfectly parallel implementation shows one operation's time. A
    /// million amortizes the two semaphore hand-offs that start and finish an iteration.
    static var perConcurrentPair: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .nanoseconds,
            warmupIterations: 1,
            scalingFactor: .mega,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: Benchmarks.iterations
        )
    }

    /// Each iteration does 1,000 of something that changes state, such as registering into a new hive, between
    /// `startMeasurement()` and `stopMeasurement()`; times are per one.
    static var perThousandInState: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .nanoseconds,
            warmupIterations: 1,
            scalingFactor: .kilo,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: min(Benchmarks.iterations, 100)
        )
    }

    /// Each iteration is one operation that takes microseconds or more, such as posting a value to 10,000 controls,
    /// run as many times as the duration allows.
    static var perLongOperation: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .microseconds,
            warmupIterations: 3,
            scalingFactor: .one,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: Benchmarks.iterations
        )
    }

    /// Each iteration is one whole operation, such as validating a hive.
    static var whole: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .microseconds,
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: min(Benchmarks.iterations, 30)
        )
    }

    /// Each iteration is one whole operation that takes milliseconds or more, such as unregistering 16,000
    /// registrations, with no warm-up iteration, so that an implementation that takes seconds runs it once, not twice.
    static var wholeLong: Benchmark.Configuration {
        var configuration = whole
        configuration.warmupIterations = 0
        return configuration
    }

    /// The net bytes and allocations left by the measured region. The warm-up iteration instantiates the generated
    /// types' metadata, so that it is not counted.
    static var memory: Benchmark.Configuration {
        .init(
            metrics: [.memoryLeakedBytes, .mallocFreeDelta],
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: .seconds(Benchmarks.duration),
            maxIterations: 3
        )
    }
}

/// The implementations a scenario can measure, by the name `ResultsTable` reads.
enum Implementation: String {
    case direct
    case serviceHive = "ServiceHive"
    case floor
    case swiftDependencies = "swift-dependencies"
    case swinject = "Swinject"
    case notificationCenter = "NotificationCenter"
}

/// One scenario: its implementations are benchmarks named "NN scenario · implementation".
struct Scenario {
    let name: String
    let configuration: Benchmark.Configuration

    init(_ name: String, configuration: Benchmark.Configuration = Configurations.perOperation) {
        self.name = name
        self.configuration = configuration
    }

    /// Adds `implementation`'s benchmark of this scenario.
    func measure(_ implementation: Implementation, _ body: @escaping Benchmark.BenchmarkClosure) {
        Benchmark("\(name) · \(implementation.rawValue)", configuration: configuration, closure: body)
    }

    /// Adds `implementation`'s benchmark of this scenario, for work that must be awaited or run on the main actor.
    func measure(_ implementation: Implementation, _ body: @escaping Benchmark.BenchmarkAsyncClosure) {
        Benchmark("\(name) · \(implementation.rawValue)", configuration: configuration, closure: body)
    }
}

/// Runs `operation` once for each of the iteration's `scaledIterations`, keeping each result from being optimized
/// away. Inlined, so that the operation is too: the loop costs the same for every implementation.
@inline(__always)
func repeatedly<Result>(_ benchmark: Benchmark, _ operation: () -> Result) {
    for _ in benchmark.scaledIterations { blackHole(operation()) }
}

/// Runs `operation` once for each of the iteration's `scaledIterations`, passing the index, for runtime arguments.
@inline(__always)
func repeatedly<Result>(_ benchmark: Benchmark, _ operation: (Int) -> Result) {
    for index in benchmark.scaledIterations { blackHole(operation(index)) }
}
