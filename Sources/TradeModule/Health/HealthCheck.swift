import ServiceHive

/// A check of one part of the app: each module contributes its own to the collection of health checks, and the server
/// runs them all at `GET /health`, without a list that imports every module.
///
/// ```swift
/// try hive.contribute(HealthCheck.self, name: "trade", scope: .singleton) { r in
///     TradeHealthCheck(catalog: catalog, pricing: try r.resolve())
/// }
///
/// for check in try hive.resolveAll(HealthCheck.self) {
///     print(check.name, await check.check())  // trade healthy
/// }
/// ```
public protocol HealthCheck: Sendable {
    /// The name of what it checks, such as `trade`, which a report of the failing checks names.
    var name: String { get }

    /// Runs the check.
    ///
    /// - Returns: ``HealthStatus/healthy``, or why not.
    func check() async -> HealthStatus
}

/// What a ``HealthCheck`` found.
public enum HealthStatus: Sendable, Hashable, CustomStringConvertible {
    /// Healthy.
    case healthy
    /// Not healthy, for the reason given, such as `no price for smoker`.
    case unhealthy(String)

    /// `healthy`, or the reason it is not.
    public var description: String {
        switch self {
        case .healthy: "healthy"
        case .unhealthy(let reason): reason
        }
    }
}
