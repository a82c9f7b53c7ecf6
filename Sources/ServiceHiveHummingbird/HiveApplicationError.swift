#if Hummingbird
/// The errors of ServiceHiveHummingbird's helpers that run an application.
///
/// ```swift
/// try await app.unlessStartupFails { try await app.test(.live) { client in … } }
/// // throws HiveApplicationError.noModulesService when `app` has no ModulesService among its services
/// ```
public enum HiveApplicationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `unlessStartupFails(_:)` was called on an application that has no `ModulesService` among its services, so it
    /// has no startup to watch. The associated value is the application's type.
    case noModulesService(application: String)

    /// The message, with how to fix it.
    public var description: String {
        switch self {
        case .noModulesService(let application):
            return "The application \(application) has no ModulesService among its services, so unlessStartupFails "
                + "has no startup to watch. To fix, give the application its ModulesService: "
                + "Application(router: router, services: [modules]); or run the operation without unlessStartupFails."
        }
    }
}
#endif
