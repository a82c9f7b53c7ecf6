import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

@Suite("Components: calls from many threads and tasks at once", .timeLimit(.minutes(5)))
struct ComponentConcurrencyTests {
    @Test("synchronous calls from many threads each get their own answer, and every order is counted once")
    func threads() async throws {
        let orders = Locked(0)
        let hive = try tradeComponentHive(orders: orders)
        // A call that throws fails the test; each thread counts the answers with a wrong total.
        let wrong = try await onThreads(8, "the calls") { thread in
            var wrong = 0
            for round in 0..<300 {
                let quantity = (thread + round) % 5 + 1
                let command = round.isMultiple(of: 2) ? "quote" : "order"
                let reply = try hive.call("trade", command, arguments: ["item": "hive-42", "quantity": quantity])
                if try reply.value("total", as: Int.self) != 1_250 * quantity { wrong += 1 }
            }
            return wrong
        }
        #expect(wrong == Array(repeating: 0, count: 8))
        #expect(orders.current == 8 * 150)
    }

    @Test("a component's singleton object is built exactly once when many threads make its first call together")
    func objectBuiltOnce() async throws {
        for round in 0..<20 {
            let hive = ServiceHive()
            let builds = Locked(0)
            try hive.registerComponent("counter") { _ -> Counter in
                pause(milliseconds: 1)
                return Counter(id: builds.increment())
            } commands: { component in
                component.command("next") { counter, _ in ["id": counter.id, "value": counter.next()] }
            }
            let values = try await onThreads(6, "round \(round)'s first calls") { _ in
                try hive.call("counter", "next").value("value", as: Int.self)
            }
            #expect(builds.current == 1, "round \(round)")
            #expect(values.sorted() == Array(1...6), "round \(round)")
        }
    }

    @Test("many tasks mix synchronous, async and typed calls, with callbacks, without a lost or crossed answer")
    func tasks() async throws {
        let hive = try tradeComponentHive()
        let callbacks = Locked(0)
        let answers = try await within("400 calls") {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<400 {
                    group.addTask {
                        switch index % 3 {
                        case 0:
                            let reply = try await hive.call(
                                "trade", "quote", arguments: ["item": "honey-jar", "quantity": index % 7 + 1])
                            return try reply.value("total", as: Int.self) == 899 * (index % 7 + 1)
                        case 1:
                            let reply = try await hive.call("trade", "track") { _ in callbacks.increment() }
                            return try reply.value("status", as: String.self) == "delivered"
                        default:
                            let quote = try await hive.call(
                                .tradeQuote, TradeQuoteRequest(item: "hive-42", quantity: 2))
                            return quote.total == 2_500
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        #expect(answers.count == 400)
        #expect(answers.allSatisfy { $0 })
        #expect(callbacks.current == 2 * 133)
    }

    @Test("components registered and unregistered while others call them: every call answers or says it is gone")
    func churn() async throws {
        let hive = try tradeComponentHive()
        let unexpected = Locked<[String]>([])
        // A call of the trade component, which stays, that throws fails the test.
        try await onThreads(6, "the churn") { thread in
            for round in 0..<300 {
                if thread < 2 {
                    let name = "temp\(thread)"
                    do {
                        try hive.registerComponent(name) { $0.command("ping") { _ in ["pong": true] } }
                    } catch {
                        unexpected.withLock { $0.append("register: \(error)") }
                    }
                    if !hive.unregisterComponent(name) { unexpected.withLock { $0.append("unregister \(name)") } }
                } else {
                    do {
                        _ = try hive.call("temp\(round % 2)", "ping")
                    } catch let error as ComponentError where [100, 200].contains(error.code) {
                        // Gone between the lookups: the call says so.
                    } catch {
                        unexpected.withLock { $0.append("call: \(error)") }
                    }
                    _ = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1])
                    _ = hive.components
                }
            }
        }
        #expect(unexpected.current.isEmpty, "\(unexpected.current.prefix(3))")
        #expect(hive.components.map(\.name) == ["trade"])
    }
}
