// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ServiceHive",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ServiceHive", targets: ["ServiceHive"]),
        .library(name: "ServiceHiveTesting", targets: ["ServiceHiveTesting"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ServiceHive"),
        .target(name: "ServiceHiveTesting", dependencies: ["ServiceHive"]),
        .target(name: "TradeModule", dependencies: ["ServiceHive"]),
        .executableTarget(name: "Demo", dependencies: ["ServiceHive", "TradeModule"]),
        .testTarget(name: "ServiceHiveTests", dependencies: ["ServiceHive"]),
        .testTarget(name: "ServiceHiveTestingTests", dependencies: ["ServiceHive", "ServiceHiveTesting"]),
        .testTarget(name: "TradeModuleTests", dependencies: ["ServiceHive", "ServiceHiveTesting", "TradeModule"]),
        .testTarget(name: "DemoTests", dependencies: ["Demo", "ServiceHive", "TradeModule"]),
        .testTarget(name: "DocumentationTests", dependencies: ["ServiceHive", "ServiceHiveTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
