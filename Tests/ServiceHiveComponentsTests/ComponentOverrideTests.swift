import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

@Suite(
    "Components: overrides replace a whole component or one command, for the operation only", .timeLimit(.minutes(5)))
struct ComponentOverrideTests {
    @Test("registering a component in overrides replaces the whole component: only its commands exist inside")
    func wholeComponent() throws {
        let hive = try tradeComponentHive()
        try hive.withOverrides {
            $0.registerComponent("trade") { $0.command("quote") { _ in ["total": 0] } }
        } operation: {
            let quote = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
            #expect(try quote.value("total", as: Int.self) == 0)
            let order = error { _ = try hive.call("trade", "order", arguments: ["item": "hive-42", "quantity": 2]) }
            guard case .commandNotFound("trade", "order", ["quote"]) = order else {
                Issue.record("expected commandNotFound listing the fake's commands, got \(String(describing: order))")
                return
            }
        }
        let outside = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        #expect(try outside.value("total", as: Int.self) == 2_500)
    }

    @Test("registering one command in overrides replaces that command; the others are the real ones")
    func oneCommand() async throws {
        let orders = Locked(0)
        let hive = try tradeComponentHive(orders: orders)
        try await hive.withOverrides {
            $0.registerCommand("quote", of: "trade") { _ in ["total": 1] }
        } operation: {
            let quote = try await hive.call("trade", "quote")
            #expect(try quote.value("total", as: Int.self) == 1)
            _ = try await hive.call("trade", "order", arguments: ["item": "hive-42", "quantity": 1])
            let track = try await hive.call("trade", "track")
            #expect(try track.value("status", as: String.self) == "delivered")
        }
        #expect(orders.current == 1)
        #expect(try await hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1]).values.count == 3)
    }

    @Test("an override of one command may make it reachable by URL, for a test of a link")
    func overrideReachability() async throws {
        let hive = try tradeComponentHive()
        let link = url("shop://trade/quote?item=hive-42")!
        #expect(!hive.canOpen(link))
        try await hive.withOverrides {
            $0.registerCommand("quote", of: "trade", reachableByURL: true) { call in
                ["item": try call.argument("item", as: String.self)]
            }
        } operation: {
            #expect(hive.canOpen(link))
            let reply = try await hive.open(link)
            #expect(try reply.value("item", as: String.self) == "hive-42")
        }
    }

    @Test("a command registered in place of one reachable by URL stays reachable, unless it says otherwise")
    func overrideKeepsReachability() async throws {
        let hive = try tradeComponentHive()
        let link = url("shop://trade/order?item=hive-42&quantity=1")!
        // Without reachableByURL, the replacement answers the URL as the declared command did.
        try await hive.withOverrides {
            $0.registerCommand("order", of: "trade") { _ in ["number": 42] }
        } operation: {
            #expect(hive.canOpen(link))
            let reply = try await hive.open(link)
            #expect(try reply.value("number", as: Int.self) == 42)
            #expect(hive.components.first?.commands.first { $0.name == "order" }?.isReachableByURL == true)
        }
        // With reachableByURL: false, it refuses, and the message lists no command as reachable: none is.
        await hive.withOverrides {
            $0.registerCommand("order", of: "trade", reachableByURL: false) { _ in ["number": 42] }
        } operation: {
            #expect(!hive.canOpen(link))
            let refused = await asyncError { _ = try await hive.open(link) }
            #expect(
                refused?.description
                    == "trade/order is not reachable by URL. No command of trade is reachable by URL. To fix, call it "
                    + "from code; or, if anyone outside the app may run it, declare it with command(\"order\", "
                    + "reachableByURL: true), and register no implementation in its place with reachableByURL: false. "
                    + "(code 400)")
        }
        // A child hive's replacement follows the same rule.
        let child = ServiceHive(parent: hive)
        try child.registerCommand("order", of: "trade") { _ in ["number": 7] }
        #expect(try await child.open(link).value("number", as: Int.self) == 7)
        #expect(child.components.first?.commands.first { $0.name == "order" }?.isReachableByURL == true)
    }

    @Test("overrides reach the services a command resolves, and the component's object")
    func servicesAndObjects() throws {
        let hive = try tradeComponentHive()
        try hive.registerComponent("counter", instance: Counter(id: 1)) { component in
            component.command("id") { counter, _ in ["id": counter.id] }
        }
        try hive.withOverrides {
            $0.register(Prices.self) { FixedPrices(prices: ["hive-42": 1]) }
            $0.register(Counter.self, name: "counter", instance: Counter(id: 2))
        } operation: {
            let quote = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 3])
            #expect(try quote.value("total", as: Int.self) == 3)
            #expect(try hive.call("counter", "id").value("id", as: Int.self) == 2)
        }
        #expect(try hive.call("counter", "id").value("id", as: Int.self) == 1)
    }

    @Test("an override may stand in for a component that was never registered, and overrides nest")
    func nesting() throws {
        let hive = ServiceHive()
        try hive.withOverrides {
            $0.registerComponent("shop") { $0.command("home") { _ in ["level": 1] } }
        } operation: {
            try hive.withOverrides {
                $0.registerCommand("home", of: "shop") { _ in ["level": 2] }
            } operation: {
                let inner = try hive.call("shop", "home")
                #expect(try inner.value("level", as: Int.self) == 2)
            }
            #expect(try hive.call("shop", "home").value("level", as: Int.self) == 1)
        }
        #expect(error { _ = try hive.call("shop", "home") }?.code == 100)
    }

    @Test("tasks running at once each see only their own overrides, and child tasks inherit them")
    func parallelTests() async throws {
        let hive = try tradeComponentHive()
        // Each task returns its index, the total its child task got, and whether the completion handler answered.
        let seen = try await within("twenty tasks with overrides") {
            try await withThrowingTaskGroup(of: (index: Int, total: Int, viaCompletion: Bool).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await hive.withOverrides {
                            $0.registerCommand("quote", of: "trade") { _ in ["total": index] }
                        } operation: {
                            async let child = hive.call("trade", "quote")
                            let total = try await child.value("total", as: Int.self)
                            let viaCompletion = await withCheckedContinuation { continuation in
                                hive.call("trade", "track") { outcome in
                                    continuation.resume(returning: (try? outcome.get()) != nil)
                                }
                            }
                            return (index, total, viaCompletion)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(seen.count == 20)
        for (index, total, viaCompletion) in seen {
            #expect(total == index, "task \(index)")
            #expect(viaCompletion, "task \(index)")
        }
    }

    @Test("strict overrides refuse a component that is not overridden, and run one that is")
    func strict() throws {
        let hive = try tradeComponentHive()
        try hive.withOverrides(strict: true) {
            $0.registerComponent("shop") { $0.command("home") { _ in ["ok": true] } }
        } operation: {
            #expect(error(ServiceHiveError.self) { _ = try hive.call("trade", "quote") }?.code == 11)
            let home = try hive.call("shop", "home")
            #expect(try home.value("ok", as: Bool.self))
        }
    }

    @Test("a child hive sees the overrides of its parent")
    func childSeesOverrides() throws {
        let hive = try tradeComponentHive()
        let child = ServiceHive(parent: hive)
        try hive.withOverrides {
            $0.registerCommand("quote", of: "trade") { _ in ["total": -1] }
        } operation: {
            let quote = try child.call("trade", "quote")
            #expect(try quote.value("total", as: Int.self) == -1)
        }
    }
}
