// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the root package keeps no dependencies.
//
// Run them from the repository root:
//
//     swift package --package-path Benchmarks benchmark
//
// and rewrite the README's results block and the threading article's figures from one run:
//
//     Benchmarks/update-results
//
let package = Package(
    name: "ServiceHiveBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
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
                .product(name: "ServiceHiveFunctions", package: "ServiceHive"),
                "ServiceHiveBaseline",
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/ServiceHiveBenchmarks",
            // Swinject 2.10's Container is not Sendable, so the fixtures that hold it are plain globals, which
            // Swift 6 mode would refuse. The library under test is built in Swift 6 mode by its own package.
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The library as it was on main before issue 11's rework (`Sources/ServiceHive` at 466d730), so that one run
        // compares resolving with the library before and after. A copy of its Swift sources with nothing renamed but
        // the module; only files that import nothing but this module use it, so that its `ServiceHive` never meets
        // the current one. Swift 6 mode, as its own package built it.
        .target(name: "ServiceHiveBaseline", path: "Sources/ServiceHiveBaseline"),
        // One scenario at a time, for `count-instructions`, which counts the instructions each operation executes
        // under valgrind: a figure that, unlike wall time, does not change with the load of a shared machine. Its
        // `Floor.swift` and `ComponentFloor.swift` are links to the benchmarks' own, so both measure one floor.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                .product(name: "ServiceHive", package: "ServiceHive"),
                .product(name: "ServiceHiveFunctions", package: "ServiceHive"),
                "InstructionCountsBaseline",
            ],
            path: "Sources/InstructionCounts",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The scenarios of `before`, in a module of their own that imports only ServiceHiveBaseline.
        .target(
            name: "InstructionCountsBaseline", dependencies: ["ServiceHiveBaseline"],
            path: "Sources/InstructionCountsBaseline"),
        // Turns one run's text output into the README's results block and the threading article's block.
        .executableTarget(name: "ResultsTable", path: "Sources/ResultsTable"),
    ]
)
