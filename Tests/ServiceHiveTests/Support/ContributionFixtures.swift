import ServiceHive
import Support

// The services of the contribution tests: many implementations of one protocol, each labelled so that a test can tell
// which contributions a collection holds, and in which order.

protocol HealthCheck: AnyObject, Sendable {
    var label: String { get }
}

final class LabelledCheck: HealthCheck {
    let label: String
    init(_ label: String) { self.label = label }
}

/// A check built from the trade service, to see which one a contribution's factory resolved.
final class TradeCheck: HealthCheck {
    let trade: any TradeService
    init(trade: any TradeService) { self.trade = trade }
    var label: String { "trade:\(trade.label)" }
}

/// A service built from the whole collection of checks.
final class HealthReport: Sendable {
    let checks: [any HealthCheck]
    init(checks: [any HealthCheck]) { self.checks = checks }
    var labels: [String] { checks.map(\.label) }
}

/// A protocol whose existential is not known to be `Sendable`, for the `Sendable` collections.
protocol Plugin {}
struct PlainPlugin: Plugin {}

extension Array where Element == any HealthCheck {
    /// The labels of the checks, in order.
    var labels: [String] { map(\.label) }
}

/// Counts the instances its factories build.
final class BuildCounter: Sendable {
    private let count = Locked(0)
    var current: Int { count.current }

    /// A new check labelled `label`, counted.
    func check(_ label: String) -> LabelledCheck {
        count.increment()
        return LabelledCheck(label)
    }
}
