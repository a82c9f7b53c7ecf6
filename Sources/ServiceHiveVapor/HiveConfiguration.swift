#if Vapor
public import ServiceHive
public import Vapor

extension Application {
    /// Gives the application its hive and the modules to install in it: they install, are checked and validated
    /// before the server accepts a request, and stop in reverse after it has drained.
    ///
    /// ```swift
    /// let app = try await Application.make(.detect())
    /// try app.useHive(hive, modules: [TradeModule()], validation: .all) { request, provisions in
    ///     provisions.provide(Caller.self, Caller(token: request.headers.bearerAuthorization?.token))
    /// }
    /// app.grouped("api").hiveComponents()
    /// await app.executeOrExit()
    /// ```
    ///
    /// **Startup.** The application's asynchronous boot, which `execute()`, `startup()` and `asyncBoot()` run before
    /// the server listens, installs the modules with `ServiceHive.install(_:)`, all or nothing, then validates the
    /// hive as `validation` says. A failure throws from the boot, so the server never listens: a
    /// `ServiceHiveError.moduleFailed(module:stage:underlying:)` naming the module, or
    /// ``HiveVaporError/validationFailed(_:)`` with the report, after the modules were stopped. A synchronous boot,
    /// such as VaporTesting's `app.testing()` runs when the application has not booted, cannot install modules, and
    /// throws ``HiveVaporError/bootedSynchronously`` instead of serving without them: boot with
    /// `try await app.asyncBoot()` first.
    ///
    /// **Shutdown.** `asyncShutdown()` stops the HTTP server first, which waits for the requests in flight, then stops
    /// the modules with `ServiceHive.shutdown()`, in reverse install order. (Vapor runs its lifecycle handlers before
    /// it stops the server; this handler stops the server itself, so that no request meets a stopped module.)
    ///
    /// **The request's hive.** `request.hive` is a child of `hive`, made on first use, that provides
    /// ``VaporRequestInfo``, the request's `Logger`, and what `provide` adds: see ``Vapor/Request/hive``.
    ///
    /// - Parameters:
    ///   - hive: The application's hive.
    ///   - modules: The modules to install at boot, in the order given: each after the modules that provide what it
    ///     needs. None, to serve a hive whose services are registered already.
    ///   - validation: Whether to validate the hive once the modules are installed. By default, ``HiveValidation/none``.
    ///   - provide: Adds the request's own instances to its hive, such as the caller's identity, made from the
    ///     request; none may hold the `Request`. By default, nothing more than ``VaporRequestInfo`` and the `Logger`.
    /// - Throws: ``HiveVaporError/hiveAlreadyUsed`` when the application has a hive already.
    public func useHive(
        _ hive: ServiceHive,
        modules: [any ServiceModule] = [],
        validation: HiveValidation = .none,
        provide: @escaping @Sendable (Request, inout ServiceHive.Provisions) -> Void = { _, _ in }
    ) throws {
        guard storage[HiveConfiguration.Key.self] == nil else { throw HiveVaporError.hiveAlreadyUsed }
        let lifecycle = HiveLifecycle(hive: hive, modules: modules, validation: validation)
        storage[HiveConfiguration.Key.self] = HiveConfiguration(hive: hive, provide: provide, lifecycle: lifecycle)
        self.lifecycle.use(lifecycle)
    }

    /// The application's hive, which ``useHive(_:modules:validation:provide:)`` gave it.
    ///
    /// - Throws: ``HiveVaporError/noHive`` when the application has none.
    public var hive: ServiceHive {
        get throws { try hiveConfiguration.hive }
    }

    /// What ``useHive(_:modules:validation:provide:)`` stored.
    var hiveConfiguration: HiveConfiguration {
        get throws {
            guard let configuration = storage[HiveConfiguration.Key.self] else { throw HiveVaporError.noHive }
            return configuration
        }
    }
}

/// The application's hive, how a request's hive is made, and the lifecycle handler that installs the modules.
struct HiveConfiguration: Sendable {
    struct Key: StorageKey {
        typealias Value = HiveConfiguration
    }

    let hive: ServiceHive
    let provide: @Sendable (Request, inout ServiceHive.Provisions) -> Void
    let lifecycle: HiveLifecycle
}

/// Whether the application validates its hive once the modules are installed, before the server listens.
///
/// ```swift
/// try app.useHive(hive, modules: [TradeModule()], validation: .all { plan in
///     plan.provide(Caller.self, Caller(token: "sample"))
/// })
/// ```
///
/// Validation resolves every registration of the hive once, with `ServiceHive.validateAsync(_:)`, so that a missing
/// registration refuses the startup instead of failing a request later.
public struct HiveValidation: Sendable {
    /// The plan that `validateAsync(_:)` receives, or `nil` for no validation.
    let plan: (@Sendable (inout ServiceHive.ValidationPlan) -> Void)?

    /// No validation. The default.
    public static let none = HiveValidation(plan: nil)

    /// Validates every registration, without samples: those that need what a request provides are skipped or fail.
    public static let all = HiveValidation(plan: { _ in })

    /// Validates every registration, with samples of what a request's hive provides, such as the caller.
    ///
    /// - Parameter samples: Provides the samples, as the plan of `ServiceHive.validate(_:)` does.
    /// - Returns: The validation.
    public static func all(samples: @escaping @Sendable (inout ServiceHive.ValidationPlan) -> Void) -> HiveValidation {
        HiveValidation(plan: samples)
    }
}
#endif
