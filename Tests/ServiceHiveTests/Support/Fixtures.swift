import ServiceHive

// Services and implementations shared by the tests. Protocols stand for what business modules export;
// the classes stand for their internal implementations.

protocol TradeService: AnyObject, Sendable {
    var label: String { get }
}

final class LiveTradeService: TradeService {
    let label: String
    init(label: String = "live") { self.label = label }
}

final class PremiumTradeService: TradeService {
    var label: String { "premium" }
}

protocol Cart: Sendable {
    var trade: any TradeService { get }
}

final class LiveCart: Cart {
    let trade: any TradeService
    init(trade: any TradeService) { self.trade = trade }
}

protocol Session: AnyObject, Sendable {}
final class LiveSession: Session {}

protocol Clock: AnyObject, Sendable {}
final class SystemClock: Clock {}

/// A service whose implementation is a value type, for `.weak` misuse.
protocol Settings: Sendable {}
struct DefaultSettings: Settings {}

protocol Greeter: Sendable {
    var greeting: String { get }
}

struct LiveGreeter: Greeter {
    let greeting: String
    init(name: String, times: Int = 1) {
        greeting = Array(repeating: "Hello, \(name)!", count: times).joined(separator: " ")
    }
}

/// Two services that need each other.
protocol Chicken: Sendable {}
protocol Egg: Sendable {}
final class LiveChicken: Chicken {
    init(egg: any Egg) {}
}
final class LiveEgg: Egg {
    init(chicken: any Chicken) {}
}

/// A service with two graph-scoped dependencies that should share one clock.
protocol Report: Sendable {
    var header: any Clock { get }
    var footer: any Clock { get }
}
final class LiveReport: Report {
    let header: any Clock
    let footer: any Clock
    init(header: any Clock, footer: any Clock) {
        self.header = header
        self.footer = footer
    }
}

struct DatabaseOffline: Error, CustomStringConvertible {
    var description: String { "database offline" }
}

final class MockTradeService: TradeService {
    let label: String
    init(label: String = "mock") { self.label = label }
}

/// A service that is never registered anywhere, only overridden.
protocol FeatureFlags: Sendable {
    var isEnabled: Bool { get }
}

struct FixedFlags: FeatureFlags {
    let isEnabled: Bool
}

extension ServiceHive.Scope {
    /// The four scopes every hive understands, for tests that pick one at random.
    static let builtIn: [Self] = [.transient, .singleton, .weak, .graph]
}
