import ServiceHive
import ServiceHiveFunctions
import Support

/// A control that shows a count, and remembers every count it was given.
@MainActor
final class Badge {
    let name: String
    var shown: [Int] = []
    var count: Int? { shown.last }

    init(_ name: String = "badge") { self.name = name }
}

/// A control that shows a style.
@MainActor
final class Panel {
    var style = "plain"
}

/// A control of no key's type, for the compile-time checks.
@MainActor
final class Stepper {}

extension FunctionKey where Control == Badge, Value == Int {
    /// The count function the tests register.
    static var count: Self { Self("test.count") }
    /// A second key of the same types.
    static var other: Self { Self("test.other") }
}

extension FunctionKey where Control == Panel, Value == String {
    static var style: Self { Self("test.style") }
}

/// A function that shows each count in the badge, and whose current value `current` gives.
func countFunction(current: (@MainActor () -> Int?)? = nil) -> BusinessFunction<Badge, Int> {
    BusinessFunction(currentValue: current) { badge, count, _ in badge.shown.append(count) }
}

/// A hive with the count function registered, with no current value unless `current` gives one.
func countHive(current: Int? = nil) throws -> ServiceHive {
    let hive = ServiceHive()
    try hive.register(function: .count) { _ in
        guard let current else { return countFunction() }
        return countFunction(current: { current })
    }
    return hive
}

/// A log of the hooks that ran, shared by a function and a delegate.
@MainActor
final class HookLog {
    var entries: [String] = []
}

/// A delegate that logs its hooks, and refuses the values `refuses` selects.
@MainActor
final class LoggingDelegate: FunctionDelegate {
    let log: HookLog
    let refuses: (Int) -> Bool

    init(log: HookLog, refuses: @escaping (Int) -> Bool = { _ in false }) {
        self.log = log
        self.refuses = refuses
    }

    func shouldUpdate(_ badge: Badge, with count: Int) -> Bool {
        log.entries.append("delegate.shouldUpdate \(badge.name) \(count)")
        return !refuses(count)
    }

    func willUpdate(_ badge: Badge, with count: Int) {
        log.entries.append("delegate.willUpdate \(badge.name) \(count)")
    }

    func didUpdate(_ badge: Badge, with count: Int) {
        log.entries.append("delegate.didUpdate \(badge.name) \(count)")
    }
}
