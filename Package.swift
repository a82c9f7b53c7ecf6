// swift-tools-version: 6.2
// 6.2: the tests use Swift Testing's exit tests, which need the Swift 6.2 toolchain. Package traits need 6.1.
import PackageDescription

/// A dependency used only with the trait of the same name.
let lifecycle: TargetDependencyCondition? = .when(traits: ["ServiceLifecycle"])
let hummingbird: TargetDependencyCondition? = .when(traits: ["Hummingbird"])
let vapor: TargetDependencyCondition? = .when(traits: ["Vapor"])

/// Hummingbird and the packages a server imports with it, for the targets that need the Hummingbird trait.
let server: [Target.Dependency] = [
    .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
    .product(name: "HTTPTypes", package: "swift-http-types", condition: hummingbird),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: hummingbird),
    .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: hummingbird),
    .product(name: "Logging", package: "swift-log", condition: hummingbird),
]

/// The same, and HummingbirdTesting, for their tests.
let serverTests = server + [.product(name: "HummingbirdTesting", package: "hummingbird", condition: hummingbird)]

/// Vapor, for the targets that need the Vapor trait.
let vaporServer: [Target.Dependency] = [
    .product(name: "Vapor", package: "vapor", condition: vapor),
    .product(name: "Logging", package: "swift-log", condition: vapor),
]

/// The same, and VaporTesting, for their tests.
let vaporServerTests = vaporServer + [.product(name: "VaporTesting", package: "vapor", condition: vapor)]

let package = Package(
    name: "ServiceHive",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServiceHive", targets: ["ServiceHive"]),
        .library(name: "ServiceHiveTesting", targets: ["ServiceHiveTesting"]),
        // Business components that update themselves: a library of its own, so that apps without such controls don't
        // link it, and the main actor stays out of the core.
        .library(name: "ServiceHiveFunctions", targets: ["ServiceHiveFunctions"]),
        // Components called by name, by URL and through typed commands: a library of its own, so that apps that only
        // resolve services don't build or link it.
        .library(name: "ServiceHiveComponents", targets: ["ServiceHiveComponents"]),
        // The server adapters. Each is empty unless its trait is enabled, and only then does its package resolve.
        .library(name: "ServiceHiveLifecycle", targets: ["ServiceHiveLifecycle"]),
        .library(name: "ServiceHiveHummingbird", targets: ["ServiceHiveHummingbird"]),
        .library(name: "ServiceHiveVapor", targets: ["ServiceHiveVapor"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    // Off by default, so that a default resolution fetches no package: since Swift 6.2, SwiftPM leaves out of the
    // resolution every dependency that only a disabled trait uses (SE-0450).
    traits: [
        .trait(
            name: "ServiceLifecycle",
            description: "The ServiceHiveLifecycle library: modules as a swift-service-lifecycle Service."),
        .trait(
            name: "Hummingbird",
            description: "The ServiceHiveHummingbird library: a hive per request, and components over HTTP. "
                + "Enables ServiceLifecycle, which Hummingbird depends on.",
            enabledTraits: ["ServiceLifecycle"]),
        .trait(
            name: "Vapor",
            description: "The ServiceHiveVapor library: modules in a Vapor application's lifecycle, a hive per "
                + "request, and components over HTTP."),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // Without Hummingbird's default traits (swift-configuration and full Foundation): the adapter needs neither,
        // and an app that wants them enables them on its own dependency on Hummingbird.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    ],
    targets: [
        .target(name: "ServiceHive", dependencies: ["ServiceHiveSystem"]),
        // What Swift cannot write: C's thread-local storage, for each thread's resolve state, and on Linux the futex under
        // the lock of `Locked`.
        .target(name: "ServiceHiveSystem"),
        .target(name: "ServiceHiveTesting", dependencies: ["ServiceHive"]),
        .target(name: "ServiceHiveFunctions", dependencies: ["ServiceHive"]),
        .target(name: "ServiceHiveComponents", dependencies: ["ServiceHive"]),
        .target(
            name: "ServiceHiveLifecycle",
            dependencies: [
                "ServiceHive",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: lifecycle),
            ]),
        // ServiceHiveLifecycle, for the readiness of the application's ModulesService: the Hummingbird trait enables
        // the ServiceLifecycle trait.
        .target(
            name: "ServiceHiveHummingbird",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveLifecycle"] + server),
        .target(
            name: "ServiceHiveVapor", dependencies: ["ServiceHive", "ServiceHiveComponents"] + vaporServer),
        .target(name: "TradeModule", dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveFunctions"]),
        // Helpers the tests and the Demo share: conveniences on the package's lock, and threads that start together.
        .target(
            name: "Support",
            dependencies: [
                "ServiceHive", "ServiceHiveComponents",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Hummingbird", "Vapor"])),
            ]),
        // The resolves that ARCHITECTURE.md maps, for Scripts/map-resolves to step in gdb.
        .executableTarget(name: "ResolvePaths", dependencies: ["ServiceHive"]),
        .executableTarget(
            name: "Demo",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveFunctions", "TradeModule", "Support"]),
        // The example server: TradeModule over HTTP. It does something only with the Hummingbird trait.
        .executableTarget(
            name: "TradeServer",
            dependencies: ["ServiceHive", "ServiceHiveLifecycle", "ServiceHiveHummingbird", "TradeModule"] + server),
        // The example server on Vapor: TradeModule over HTTP. It does something only with the Vapor trait.
        .executableTarget(
            name: "VaporTradeServer",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveVapor", "TradeModule"] + vaporServer),
        // The servers that Scripts/measure-adapter-throughput loads, to measure what the Hummingbird adapter costs.
        .executableTarget(
            name: "HummingbirdThroughput",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveHummingbird"] + server),
        // The server that it loads to measure what the Vapor adapter costs.
        .executableTarget(
            name: "VaporThroughput",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveVapor"] + vaporServer),
        // What `request.hive` adds to a Vapor request, measured in one process. It does something only with the Vapor
        // trait: swift run -c release --traits Vapor VaporRequestHiveCost
        .executableTarget(
            name: "VaporRequestHiveCost",
            dependencies: ["ServiceHive", "ServiceHiveVapor", "RequestCostRounds"] + vaporServer),
        // What HiveMiddleware adds to a Hummingbird request, measured in one process. It does something only with the
        // Hummingbird trait: swift run -c release --traits Hummingbird HummingbirdRequestHiveCost
        .executableTarget(
            name: "HummingbirdRequestHiveCost",
            dependencies: ["ServiceHive", "ServiceHiveHummingbird", "RequestCostRounds"] + server),
        // The rounds both tools run, and what they print.
        .target(name: "RequestCostRounds"),
        .testTarget(name: "ServiceHiveTests", dependencies: ["ServiceHive", "Support"]),
        .testTarget(name: "ServiceHiveTestingTests", dependencies: ["ServiceHive", "ServiceHiveTesting", "Support"]),
        .testTarget(
            name: "ServiceHiveComponentsTests", dependencies: ["ServiceHive", "ServiceHiveComponents", "Support"]),
        .testTarget(
            name: "ServiceHiveFunctionsTests", dependencies: ["ServiceHive", "ServiceHiveFunctions", "Support"]),
        .testTarget(
            name: "TradeModuleTests",
            dependencies: [
                "ServiceHive", "ServiceHiveComponents", "ServiceHiveFunctions", "ServiceHiveTesting", "TradeModule",
                "Support",
            ]),
        .testTarget(
            name: "DemoTests",
            dependencies: [
                "Demo", "ServiceHive", "ServiceHiveComponents", "ServiceHiveFunctions", "TradeModule", "Support",
            ]),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "ServiceHive", "ServiceHiveComponents", "ServiceHiveFunctions", "ServiceHiveTesting", "Support",
            ]),
        // The adapters' tests: empty without their traits.
        .testTarget(
            name: "ServiceHiveLifecycleTests",
            dependencies: [
                "ServiceHive", "ServiceHiveLifecycle", "ServiceHiveTesting", "Support",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: lifecycle),
                .product(name: "Logging", package: "swift-log", condition: lifecycle),
            ]),
        .testTarget(
            name: "ServiceHiveHummingbirdTests",
            dependencies: [
                "ServiceHive", "ServiceHiveComponents", "ServiceHiveHummingbird", "ServiceHiveTesting", "Support",
            ] + serverTests),
        .testTarget(
            name: "ServiceHiveVaporTests",
            dependencies: ["ServiceHive", "ServiceHiveComponents", "ServiceHiveVapor", "ServiceHiveTesting", "Support"]
                + vaporServerTests),
        .testTarget(
            name: "VaporTradeServerTests",
            dependencies: [
                "VaporTradeServer", "ServiceHive", "ServiceHiveVapor", "ServiceHiveTesting", "TradeModule", "Support",
            ] + vaporServerTests),
        .testTarget(
            name: "TradeServerTests",
            dependencies: [
                "TradeServer", "ServiceHive", "ServiceHiveComponents", "ServiceHiveLifecycle", "ServiceHiveHummingbird",
                "ServiceHiveTesting", "TradeModule", "Support",
            ] + serverTests),
    ],
    swiftLanguageModes: [.v6]
)
