#if ServiceLifecycle
public import ServiceHive

/// The errors a ``ModulesService`` throws of its own.
///
/// What installing the modules throws is a `ServiceHiveError`, passed on unchanged.
///
/// ```swift
/// do {
///     try await modules.ready()
/// } catch ModulesServiceError.validationFailed(let report) {
///     logger.critical("The modules do not resolve:\n\(report)")
/// }
/// ```
public enum ModulesServiceError: Error, Sendable, CustomStringConvertible {
    /// ``ModulesService/run()`` was called on a service that was running or had run: a service runs once.
    case alreadyRun

    /// The modules installed, but validating the hive found registrations that do not resolve; the modules were
    /// stopped. The report lists every failure.
    case validationFailed(ServiceHive.ValidationReport)

    /// The modules installed, but checking the dependencies their registrations declare found problems, such as a
    /// missing service, a cycle or a captive dependency; the modules were stopped before validation built anything.
    /// The report lists every problem.
    case checkFailed(ServiceHive.CheckReport)

    /// The message: what went wrong and how to fix it; for a failed validation, the report follows, one line per
    /// failure.
    public var description: String {
        switch self {
        case .alreadyRun:
            return "This ModulesService has run already, and a ModulesService runs once; its hive was left alone. "
                + "To fix, make a new ModulesService, with a new hive: the modules' registrations stay in this one."
        case .validationFailed(let report):
            let count = report.failures.count
            return "The modules installed, but \(count) registration\(count == 1 ? "" : "s") failed to resolve when "
                + "the hive was validated, so the modules were stopped. To fix, register what each failure below is "
                + "missing, or give samples of what is provided later with "
                + "ModulesService.Validation.all(samples:).\n\(report)"
        case .checkFailed(let report):
            let count = report.problems.count
            return "The modules installed, but checking the dependencies their registrations declare found \(count) "
                + "problem\(count == 1 ? "" : "s"), so the modules were stopped before anything was built. To fix, "
                + "do what each problem below says.\n\(report)"
        }
    }
}
#endif
