// swift-tools-version: 6.2
import PackageDescription

// The swift-service-lifecycle adapter lives in its own package so that the root package keeps no dependencies.
//
// Run its tests from the repository root:
//
//     swift test --package-path Integrations/ServiceHiveLifecycle
//
let package = Package(
    name: "ServiceHiveLifecycle",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ServiceHiveLifecycle", targets: ["ServiceHiveLifecycle"])
    ],
    dependencies: [
        .package(name: "ServiceHive", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        // Only the tests use it, for the ServiceGroup's logger; service-lifecycle depends on it anyway.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
    ],
    targets: [
        .target(
            name: "ServiceHiveLifecycle",
            dependencies: [
                .product(name: "ServiceHive", package: "ServiceHive"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ServiceHiveLifecycleTests",
            dependencies: [
                "ServiceHiveLifecycle",
                .product(name: "ServiceHive", package: "ServiceHive"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
