// swift-tools-version: 6.2
// 6.2: the tests use Swift Testing's exit tests, which need the Swift 6.2 toolchain.
import PackageDescription

let package = Package(
    name: "ServiceHive",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ServiceHive", targets: ["ServiceHive"]),
        .library(name: "ServiceHiveTesting", targets: ["ServiceHiveTesting"]),
        // Business components that update themselves: a library of its own, so that apps without such controls don't
        // link it, and the main actor stays out of the core.
        .library(name: "ServiceHiveFunctions", targets: ["ServiceHiveFunctions"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ServiceHive"),
        .target(name: "ServiceHiveTesting", dependencies: ["ServiceHive"]),
        .target(name: "ServiceHiveFunctions", dependencies: ["ServiceHive"]),
        .target(name: "TradeModule", dependencies: ["ServiceHive", "ServiceHiveFunctions"]),
        // Helpers the tests and the Demo share: conveniences on the package's lock, and threads that start together.
        .target(name: "Support", dependencies: ["ServiceHive"]),
        .executableTarget(
            name: "Demo", dependencies: ["ServiceHive", "ServiceHiveFunctions", "TradeModule", "Support"]),
        .testTarget(name: "ServiceHiveTests", dependencies: ["ServiceHive", "Support"]),
        .testTarget(name: "ServiceHiveTestingTests", dependencies: ["ServiceHive", "ServiceHiveTesting", "Support"]),
        .testTarget(
            name: "ServiceHiveFunctionsTests", dependencies: ["ServiceHive", "ServiceHiveFunctions", "Support"]),
        .testTarget(
            name: "TradeModuleTests",
            dependencies: ["ServiceHive", "ServiceHiveFunctions", "ServiceHiveTesting", "TradeModule", "Support"]),
        .testTarget(
            name: "DemoTests", dependencies: ["Demo", "ServiceHive", "ServiceHiveFunctions", "TradeModule", "Support"]),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["ServiceHive", "ServiceHiveFunctions", "ServiceHiveTesting", "Support"]),
    ],
    swiftLanguageModes: [.v6]
)
