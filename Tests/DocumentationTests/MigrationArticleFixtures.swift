import ServiceHive
import Support

/// The types that the article "Migrating from Other Locators" uses, in a namespace of their own so that they don't
/// clash with the README's types of the same names in this module. `Reader`, `Writer`, `LiveStore`, `Database` and
/// `LiveDatabase` are the README's, which fit the article as they are.
enum MigrationArticle {
    /// Class-bound, so that the article can compare instances with `===`.
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

    final class MockTradeService: TradeService {
        var label: String { "mock" }
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

    protocol Greeter: Sendable {
        var greeting: String { get }
    }

    struct LiveGreeter: Greeter {
        let greeting: String
        init(name: String) { greeting = "Hello, \(name)!" }
    }

    /// Keeps a lazy clock and a clock provider.
    final class Scheduler: Sendable {
        let lazyClock: ServiceHive.Lazy<any Clock>
        let clocks: ServiceHive.Provider<any Clock>
        init(lazyClock: ServiceHive.Lazy<any Clock>, clocks: ServiceHive.Provider<any Clock>) {
            self.lazyClock = lazyClock
            self.clocks = clocks
        }
    }

    /// One of two objects of one graph that point at each other; `Sendable`, so it keeps its child in a lock.
    final class Parent: Sendable {
        let child = Locked<Child?>(nil)
    }

    final class Child: Sendable {
        weak let parent: Parent?  // weak, so that the two objects that point at each other are released
        init(parent: Parent) { self.parent = parent }
    }

    /// Not `Sendable`, as a protocol written before strict concurrency often is.
    protocol Notepad: AnyObject {
        var lines: [String] { get }
    }

    /// A notepad that anyone may write to, so it is not `Sendable`.
    final class PlainNotepad: Notepad {
        var lines: [String] = []
    }

    /// A notepad whose lines never change, so it is `Sendable`.
    final class FrozenNotepad: Notepad, Sendable {
        let lines: [String]
        init(_ lines: [String]) { self.lines = lines }
    }

    /// ATComponentService's example component: a class whose one command answers the app's name.
    final class MainComponent: Sendable {
        func appName(prefix: String) -> String { prefix + "Hive" }
    }
}
