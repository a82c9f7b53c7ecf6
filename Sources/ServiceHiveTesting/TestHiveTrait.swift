public import ServiceHive
public import Testing

/// A Swift Testing trait that gives each test a new, empty hive of its own, with some of its services overridden: the
/// way to test the app's real wiring, which installs its modules into a hive of its own each run.
///
/// ```swift
/// @Test(.testHive { $0.register(PricingService.self) { FlatPricing() } })
/// func ordersAtFlatPrices() async throws {
///     let hive = try TestHiveTrait.current
///     let app = TradeServer.application(hive: hive)  // the real modules, service group and routes
///     try await app.test(.router) { client in … }    // they install into `hive`, and see the override
/// }
/// ```
///
/// ``ServiceOverridesTrait`` overrides a hive that exists when the test is declared. Wiring such as a service group
/// wants a new hive per run instead: installing the same modules into one hive twice fails with `alreadyRegistered`,
/// and tests run in parallel. This trait makes that hive, once per test case, and runs the test case with the
/// overrides of `configure` on it. Pass ``current`` to the code that builds the wiring.
///
/// The overrides are task-local, as with ``ServiceHive/ServiceHive/withOverrides(strict:_:isolation:operation:)``:
/// everything the test runs in its own task or in child tasks sees them, a `ServiceGroup` that the test runs included,
/// with its services and the request handlers of a server it starts. `Task.detached` does not.
///
/// Applied to a suite, the trait gives each test in the suite, and in its sub-suites, a hive of its own.
public struct TestHiveTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether a resolve through the hive that no override answers fails the test.
    public let isStrict: Bool

    private let configure: @Sendable (inout ServiceHive.Overrides) -> Void

    /// The hive of the test case that is running.
    @TaskLocal private static var hive: ServiceHive?

    fileprivate init(strict: Bool, configure: @escaping @Sendable (inout ServiceHive.Overrides) -> Void) {
        isStrict = strict
        self.configure = configure
    }

    /// The hive that this trait made for the test case that is running.
    ///
    /// ```swift
    /// let hive = try TestHiveTrait.current
    /// ```
    ///
    /// Each test case gets a new one. It is the same for everything the test case runs, in its task and in child
    /// tasks.
    ///
    /// - Throws: ``Missing`` outside a test that has the trait, or in a detached task.
    public static var current: ServiceHive {
        get throws {
            guard let hive else { throw Missing() }
            return hive
        }
    }

    /// Always `true`: applied to a suite, the trait gives each test in it a hive of its own.
    public var isRecursive: Bool { true }

    /// This trait for each test case, and `nil` for a suite as a whole, which has no hive of its own.
    ///
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case, or `nil` for a suite or a test function as a whole.
    /// - Returns: The trait, or `nil`.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Makes a new hive, and runs `function` with it as ``current`` and with the overrides of this trait.
    ///
    /// - Parameters:
    ///   - test: The test being run.
    ///   - testCase: The test case.
    ///   - function: The test case to run.
    /// - Throws: Whatever `function` throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let hive = ServiceHive()
        try await Self.$hive.withValue(hive) {
            try await hive.withOverrides(strict: isStrict, configure) {
                try await function()
            }
        }
    }

    /// What ``current`` throws outside a test that has the trait.
    public struct Missing: Error, CustomStringConvertible {
        /// The message, with how to fix it.
        public var description: String {
            "TestHiveTrait.current was read outside a test with the .testHive trait, or in a detached task. To fix, "
                + "add .testHive { … } to the test or to its suite, and read it from the test's own task."
        }
    }
}

extension Trait where Self == TestHiveTrait {
    /// Gives each test case a new, empty hive, ``TestHiveTrait/current``, with its services overridden as `configure`
    /// says.
    ///
    /// ```swift
    /// @Suite(.testHive(strict: false) { $0.register(Clock.self) { FixedClock() } })
    /// struct ServerTests { … }
    /// ```
    ///
    /// - Parameters:
    ///   - strict: When `true`, a resolve through the hive that no override answers fails with
    ///     `ServiceHiveError.notOverridden`.
    ///   - configure: Registers the overrides, as in ``ServiceHive/ServiceHive/withOverrides(strict:_:operation:)``.
    ///     By default, none.
    /// - Returns: The trait.
    public static func testHive(
        strict: Bool = false,
        _ configure: @escaping @Sendable (inout ServiceHive.Overrides) -> Void = { _ in }
    ) -> Self {
        TestHiveTrait(strict: strict, configure: configure)
    }
}
