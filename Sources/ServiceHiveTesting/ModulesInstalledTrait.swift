public import ServiceHive
public import Testing

/// A Swift Testing suite trait that installs modules into a hive once, runs the suite's tests, which may run in
/// parallel, and shuts the modules down after the last one.
///
/// A trait needs its hive when the test is declared, but ``ServiceHive/ServiceHive/install(_:)-([ServiceModule])`` is `async`. This
/// trait bridges the two: declare the hive as a static property, install into it with the trait, and override its
/// services per test with ``ServiceOverridesTrait``:
///
/// ```swift
/// enum Shop {
///     static let hive = ServiceHive()
/// }
///
/// @Suite(.modulesInstalled([TradeModule()], in: Shop.hive))
/// struct CheckoutTests {
///     @Test(.serviceOverrides(hive: Shop.hive) { $0.register(PricingService.self) { FlatPricing() } })
///     func quotesWithFlatPricing() throws { … }
/// }
/// ```
///
/// The modules are installed once for the whole suite, not once per test: the trait is not recursive. Give each suite
/// a hive of its own: installing the same modules twice into one hive fails with `alreadyRegistered`.
public struct ModulesInstalledTrait: SuiteTrait, TestScoping {
    /// The hive the modules are installed into.
    public let hive: ServiceHive
    /// The modules to install.
    fileprivate let modules: [any ServiceModule]

    /// Installs the modules, runs the suite, and shuts the modules down.
    ///
    /// - Parameters:
    ///   - test: The suite.
    ///   - testCase: `nil`, for a suite.
    ///   - function: The suite's tests.
    /// - Throws: A `ServiceHiveError.moduleFailed` if the install fails, or whatever `function` throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await hive.install(modules)
        do {
            try await function()
        } catch {
            await hive.shutdown()
            throw error
        }
        await hive.shutdown()
    }
}

extension Trait where Self == ModulesInstalledTrait {
    /// Installs `modules` into `hive` once before the suite's tests run, and shuts them down after the last one.
    ///
    /// - Parameters:
    ///   - modules: The modules to install.
    ///   - hive: The hive to install them into; a hive of the suite's own.
    /// - Returns: The trait.
    public static func modulesInstalled(_ modules: [any ServiceModule], in hive: ServiceHive) -> Self {
        ModulesInstalledTrait(hive: hive, modules: modules)
    }
}
