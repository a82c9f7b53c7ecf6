public import ServiceHive
public import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, with some services of a hive overridden.
///
/// ```swift
/// @Test(.serviceOverrides(hive: app) { $0.register(TradeService.self) { MockTradeService() } })
/// func placesAnOrder() throws {
///     let trade = try app.resolve(TradeService.self)  // the mock
/// }
/// ```
///
/// **Which hive.** The trait overrides the hive you pass as `hive:`. Without it, it overrides
/// ``ServiceHive/ServiceHive/shared``, the process-wide hive; code under test that resolves from another hive does
/// not see the overrides.
///
/// The trait wraps each test case in ``ServiceHive/ServiceHive/withOverrides(strict:_:isolation:operation:)``. The
/// overrides are task-local, so tests running in parallel each see only their own, and every instance built from an
/// override belongs to that test and is released when it ends. Applied to a suite, the trait gives each test in it
/// its own overrides.
public struct ServiceOverridesTrait: TestTrait, SuiteTrait, TestScoping {
    /// The hive whose services the trait overrides.
    public let hive: ServiceHive
    /// Whether a resolve through the hive that no override answers fails the test.
    public let isStrict: Bool
    /// Registers the overrides.
    fileprivate let configure: @Sendable (inout ServiceHive.Overrides) -> Void

    /// Always `true`: applied to a suite, the trait gives each test in it, and in its sub-suites, its own overrides.
    public var isRecursive: Bool { true }

    /// Runs `function` with the overrides that this trait configures.
    ///
    /// - Parameters:
    ///   - test: The test or suite being run.
    ///   - testCase: The test case, or `nil` for a suite.
    ///   - function: The test to run.
    /// - Throws: Whatever `function` throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await hive.withOverrides(strict: isStrict, configure) {
            try await function()
        }
    }
}

extension Trait where Self == ServiceOverridesTrait {
    /// Runs the test, or each test of the suite, with the services of `hive` overridden as `configure` says.
    ///
    /// ```swift
    /// @Suite(.serviceOverrides(hive: app, strict: true) { $0.register(Clock.self) { FixedClock() } })
    /// struct CheckoutTests { … }
    /// ```
    ///
    /// - Parameters:
    ///   - hive: The hive to override. **Without it, the trait overrides ``ServiceHive/ServiceHive/shared``.**
    ///   - strict: When `true`, a resolve through the hive that no override answers fails with
    ///     `ServiceHiveError.notOverridden`, so that a forgotten mock fails the test instead of reaching a real
    ///     service.
    ///   - configure: Registers the overrides, as in ``ServiceHive/ServiceHive/withOverrides(strict:_:operation:)``: a
    ///     second registration of the same key replaces the first, and nothing throws.
    /// - Returns: The trait.
    public static func serviceOverrides(
        hive: ServiceHive = .shared,
        strict: Bool = false,
        _ configure: @escaping @Sendable (inout ServiceHive.Overrides) -> Void
    ) -> Self {
        ServiceOverridesTrait(hive: hive, isStrict: strict, configure: configure)
    }
}
