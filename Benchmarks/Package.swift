// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the root package keeps no dependencies. `README.md` beside this
// file says how to run them, what each scenario measures and how the peers are set up.
let package = Package(
    name: "ServiceHiveBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "ServiceHive", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
        // A peer. The benchmarks use only its `Dependencies` product, which builds without swift-syntax.
        .package(url: "https://github.com/pointfreeco/swift-dependencies.git", exact: "1.17.1"),
        .package(
            url: "https://github.com/ordo-one/package-benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ServiceHiveBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ServiceHive", package: "ServiceHive"),
                .product(name: "ServiceHiveComponents", package: "ServiceHive"),
                .product(name: "ServiceHiveFunctions", package: "ServiceHive"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/ServiceHiveBenchmarks",
            // Swinject 2.10's Container is not Sendable, so the fixtures that hold it are plain globals, which
            // Swift 6 mode would refuse. The library under test is built in Swift 6 mode by its own package.
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // One scenario at a time, for `count-instructions`, which counts the instructions each operation executes
        // under valgrind: a figure that, unlike wall time, does not change with the load of a shared machine. Its
        // `Services.swift`, `ScaleFixtures.swift`, `Floor.swift` and `ComponentFloor.swift` are links to the
        // benchmarks' own, so both measure the same services, setups and floors.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                .product(name: "ServiceHive", package: "ServiceHive"),
                .product(name: "ServiceHiveComponents", package: "ServiceHive"),
                .product(name: "ServiceHiveFunctions", package: "ServiceHive"),
            ],
            path: "Sources/InstructionCounts",
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("InferSendableFromCaptures")]
        ),
        // Resolves on 1, 2, 4 and 8 plain threads released together, beside `direct` on as many, and prints the ns per
        // operation per thread of each (`README.md` beside this file says how to run it). Its `Services.swift`,
        // `Direct.swift`, `ScaleFixtures.swift` and `StandardRegistrations.swift` are links to the benchmarks' own, so
        // that both measure the same services, hives and `direct`.
        .executableTarget(
            name: "ThreadScaling",
            dependencies: [.product(name: "ServiceHive", package: "ServiceHive")],
            path: "Sources/ThreadScaling"
        ),
        // Turns one run's text output into the results block of `README.md` beside this file.
        .executableTarget(name: "ResultsTable", path: "Sources/ResultsTable"),
    ]
)
