import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// Every call in this file is written as a user writes it: no `try` on a builder's registration, and none on a
// `withOverrides` whose operation cannot throw, as in ServiceHiveTests' `OverrideBuilderTests`.

@Suite(
    "The override builder's components and commands: registrations that cannot fail, where a later one replaces an earlier one",
    .timeLimit(.minutes(5))
)
struct ComponentOverrideBuilderTests {
    @Test("a component replaces what the builder registered before for it; a command after it replaces its own")
    func components() throws {
        let hive = try tradeComponentHive()
        try hive.withOverrides {
            $0.registerCommand("quote", of: "trade") { _ in ["total": 1] }
            $0.registerComponent("trade") { component in
                component.command("quote") { _ in ["total": 2] }
                component.command("order") { _ in ["number": 2] }
            }
            $0.registerCommand("order", of: "trade") { _ in ["number": 3] }
        } operation: {
            let quote = try hive.call("trade", "quote").value("total", as: Int.self)
            let order = try hive.call("trade", "order").value("number", as: Int.self)
            #expect(quote == 2)
            #expect(order == 3)
            #expect(hive.components.map(\.name) == ["trade"])
        }
        try hive.withOverrides {
            $0.registerComponent("trade", instance: Counter(id: 1)) { component in
                component.command("quote") { counter, _ in ["total": counter.id] }
            }
            $0.registerComponent("trade", scope: .transient) { _ in
                Counter(id: 2)
            } commands: { component in
                component.command("quote") { counter, _ in ["total": counter.id] }
            }
        } operation: {
            let quote = try hive.call("trade", "quote").value("total", as: Int.self)
            #expect(quote == 2)
        }
        try hive.withOverrides {
            $0.registerCommand(.tradeQuote) { request, _ in
                TradeQuoteReply(item: request.item, quantity: request.quantity, total: 1)
            }
            $0.registerCommand(.tradeQuote) { request, _ in
                TradeQuoteReply(item: request.item, quantity: request.quantity, total: 2)
            }
        } operation: {
            let reply: TradeQuoteReply = try hive.call(.tradeQuote, TradeQuoteRequest(item: "hive-42", quantity: 1))
            #expect(reply.total == 2)
        }
    }

    // MARK: - Programmer errors

    @Test("a component name that is not valid stops the test, naming the name")
    func invalidComponentNameTraps() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceHive().withOverrides {
                    $0.registerCommand("quote", of: "trade/quote") { _ in [:] }
                } operation: {
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "withOverrides: the override at ServiceHiveComponentsTests/ComponentOverrideBuilderTests.swift:"))
        #expect(message.contains("'trade/quote' is not a valid component or command name. To fix, use 1 to 64"))
    }
}
