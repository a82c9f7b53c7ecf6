#if Vapor
public import ServiceHive

/// The errors of ServiceHiveVapor's own.
///
/// ```swift
/// try app.useHive(hive, modules: [TradeModule()], validation: .all)
/// try await app.asyncBoot()  // throws HiveVaporError.validationFailed(report) when a registration does not resolve
/// ```
public enum HiveVaporError: Error, Sendable, CustomStringConvertible {
    /// The application has no hive: `request.hive` or `app.hive` was read before
    /// `Application.useHive(_:modules:validation:provide:)`.
    case noHive

    /// `Application.useHive(_:modules:validation:provide:)` was called twice on one application.
    case hiveAlreadyUsed

    /// The application booted synchronously, with `boot()`, which cannot install modules: VaporTesting's
    /// `app.testing()` does so when the application has not booted.
    case bootedSynchronously

    /// A request read its hive while the application's modules are not running: the application has not booted
    /// asynchronously, its boot failed, or it has shut down. The associated value says which.
    case modulesNotRunning(String)

    /// The modules installed, but `ServiceHive.check()` found problems in the dependencies that registrations
    /// declare: one that nothing registers, a cycle, or a captive dependency; the modules were stopped. The report
    /// lists every problem.
    case checkFailed(ServiceHive.CheckReport)

    /// The modules installed, but validating the hive found registrations that do not resolve; the modules were
    /// stopped. The report lists every failure.
    case validationFailed(ServiceHive.ValidationReport)

    /// The message: what went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noHive:
            return "This application has no hive. To fix, give it one before it boots: "
                + "try app.useHive(hive, modules: [...])."
        case .hiveAlreadyUsed:
            return "This application has a hive already: useHive was called twice. To fix, call it once, with every "
                + "module."
        case .bootedSynchronously:
            return "The application booted synchronously, which cannot install its modules, so it does not serve "
                + "without them. To fix, boot it with try await app.asyncBoot() first, also before app.testing(), "
                + "or run it with try await app.execute()."
        case .modulesNotRunning(let why):
            return "This request's hive is not available: the application's modules are not running (\(why)). To "
                + "fix, boot the application with try await app.asyncBoot(), or app.execute(), and serve only once "
                + "it succeeded."
        case .checkFailed(let report):
            return "The modules installed, but checking the dependencies their registrations declare found problems, "
                + "so the modules were stopped. To fix, register what each problem below names, or change the "
                + "registration it names.\n\(report)"
        case .validationFailed(let report):
            let count = report.failures.count
            return "The modules installed, but \(count) registration\(count == 1 ? "" : "s") failed to resolve when "
                + "the hive was validated, so the modules were stopped. To fix, register what each failure below is "
                + "missing, or give samples of what a request provides with HiveValidation.all(samples:).\n\(report)"
        }
    }
}
#endif
