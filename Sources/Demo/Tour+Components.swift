import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import TradeModule

extension Tour {
    /// The tour's chapter on components: the `trade` component called three ways, and three errors.
    func componentsChapter(_ hive: ServiceHive, number: Int) async throws {
        let say = section(
            number, "Call the trade component by name",
            "Callers need none of the module's types: a component, a command, named arguments and a reply.")
        for component in hive.components { say("\(component)") }

        let quote = try await hive.call(.tradeQuote, TradeRequest(itemId: "hive-42", quantity: 2))
        say("typed     \(quote)")
        let reply = try await hive.call("trade", "quote", arguments: ["item": "honey-jar", "quantity": 3])
        say("by name   \(reply)")
        let link = "shop://trade/order?item=hive-42&quantity=2"
        say("by URL    \(link)")
        say("          \(try await hive.open(URL(string: link)!))")
        let progress = ProgressLog()
        let tracked = try await hive.call("trade", "track", arguments: ["order": 2]) { update in
            progress.add((try? update.value("progress", as: Int.self)) ?? 0)
        }
        say("tracked   \(progress.text) → \(try tracked.value("status", as: String.self))")

        for attempt in [
            { _ = try await hive.call("trade", "qoute", arguments: ["item": "hive-42", "quantity": 2]) },
            { _ = try await hive.open(URL(string: "shop://trade/quote?item=hive-42&quantity=2")!) },
            { _ = try await hive.open(URL(string: "shop://trade/order?item=hive-42&quantity=two")!) },
        ] as [@Sendable () async throws -> Void] {
            do {
                try await attempt()
            } catch {
                say("\(error)")
            }
        }
    }
}

/// The progress a command calls back with, in order.
private final class ProgressLog: Sendable {
    private let values = Locked<[Int]>([])
    func add(_ value: Int) { values.withLock { $0.append(value) } }
    var text: String { values.current.map { "\($0)%" }.joined(separator: " ") }
}
