import ServiceHive
import ServiceHiveTesting
import Testing

// The README's testing snippets. `DocumentationSnippetTests` checks that the two stay the same.

struct MockTradeService: TradeService {
    func quote(itemId: String) -> Int { 0 }
}

@Suite("Testing snippets", .timeLimit(.minutes(5)))
struct TestingSnippetTests {
    @Test("the override-scope snippet swaps the service for the operation only")
    func overrideScope() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        // snippet: override-scope
        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)  // the mock
            #expect(trade.quote(itemId: "hive-42") == 0)
        }
        // end-snippet
        #expect(try hive.resolve(TradeService.self).quote(itemId: "hive-42") == 1_250)
    }

    // snippet: trait
    @Test(.serviceOverrides { $0.register(TradeService.self) { MockTradeService() } })
    func quotesWithTheMock() throws {
        let trade = try ServiceHive.shared.resolve(TradeService.self)
        #expect(trade.quote(itemId: "hive-42") == 0)
    }
    // end-snippet
}
