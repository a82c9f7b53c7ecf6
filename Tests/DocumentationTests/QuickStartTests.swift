import ServiceHive
import Testing

// The README's quick start, line for line. `DocumentationSnippetTests` checks that the two stay the same.

// snippet: quick-start
protocol TradeService: Sendable {
    func quote(itemId: String) -> Int
}

struct LiveTradeService: TradeService {
    func quote(itemId: String) -> Int { 1_250 }
}

@Suite("Quick start", .timeLimit(.minutes(5)))
struct QuickStartTests {
    @Test("the README's quick start compiles, runs and quotes 1250")
    func quickStart() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }

        let trade: any TradeService = try hive.resolve()
        print(trade.quote(itemId: "hive-42"))  // 1250
        // end-snippet
        #expect(trade.quote(itemId: "hive-42") == 1_250)
    }
}
