public import ServiceHive
public import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, inside a ServiceHive override scope.
///
/// ```swift
/// @Test(.serviceOverrides { $0.register(TradeService.self) { MockTradeService() } })
/// func placesAnOrder() throws {
///     let trade = try ServiceHive.shared.resolve(TradeService.self)  // the mock
/// }
/// ```
///
/// The trait wraps each test case in ``ServiceHive/ServiceHive/withOverrides(_:isolation:operation:)`` on the hive you
/// pass, ``ServiceHive/ServiceHive/shared`` by default. Overrides are task-local, so tests running in parallel each
/// see only their own, and every `.singleton` built during a test belongs to that test's scope and is released
/// when it ends. Applied to a suite, the trait gives each test in it a scope of its own.
public struct ServiceOverridesTrait: TestTrait, SuiteTrait, TestScoping {
    /// The hive whose services the trait overrides.
    public let hive: ServiceHive

    private let configure: @Sendable (inout ServiceHive.Overrides) -> Void

    fileprivate init(hive: ServiceHive, configure: @escaping @Sendable (inout ServiceHive.Overrides) -> Void) {
        self.hive = hive
        self.configure = configure
    }

    /// Always `true`: applied to a suite, the trait gives each test in it, and in its sub-suites, its own scope,
    /// so no test sees another's shared instances.
    public var isRecursive: Bool { true }

    /// Runs `function` inside an override scope configured by this trait.
    ///
    /// - Parameters:
    ///   - test: The test or suite being run.
    ///   - testCase: The test case, or `nil` for a suite.
    ///   - function: The test to run inside the scope.
    /// - Throws: Whatever `function` throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await hive.withOverrides(configure) {
            try await function()
        }
    }
}

extension Trait where Self == ServiceOverridesTrait {
    /// Runs the test, or each test of the suite, with the services of `hive` swapped as `configure` says.
    ///
    /// ```swift
    /// @Suite(.serviceOverrides(hive: appHive) { $0.register(Clock.self) { FixedClock() } })
    /// struct CheckoutTests { … }
    /// ```
    ///
    /// - Parameters:
    ///   - hive: The hive to override; ``ServiceHive/ServiceHive/shared`` by default.
    ///   - configure: Registers the overrides, as in ``ServiceHive/ServiceHive/withOverrides(_:operation:)``.
    /// - Returns: The trait.
    public static func serviceOverrides(
        hive: ServiceHive = .shared,
        _ configure: @escaping @Sendable (inout ServiceHive.Overrides) -> Void
    ) -> Self {
        ServiceOverridesTrait(hive: hive, configure: configure)
    }
}
