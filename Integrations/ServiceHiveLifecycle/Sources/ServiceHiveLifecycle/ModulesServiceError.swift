/// The errors a ``ModulesService`` throws of its own.
///
/// What installing the modules throws is a `ServiceHiveError`, passed on unchanged.
///
/// ```swift
/// do {
///     try await modules.run()
/// } catch ModulesServiceError.alreadyRun {
///     // This service ran before: make a new one.
/// }
/// ```
public enum ModulesServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``ModulesService/run()`` was called on a service that was running or had run: a service runs once.
    case alreadyRun

    /// The message, in one line: what went wrong and how to fix it.
    public var description: String {
        switch self {
        case .alreadyRun:
            return "This ModulesService has run already, and a ModulesService runs once; its hive was left alone. "
                + "To fix, make a new ModulesService, with a new hive: the modules' registrations stay in this one."
        }
    }
}
