import ServiceHive
import Testing

// Code from the DocC articles, compiled here against this target's fixtures. `DocumentationSnippetTests` checks
// that the articles and these regions stay the same.

@Suite("Article snippets")
struct ArticleSnippetTests {
    @Test("Scopes and Lifetimes: a graph-scoped clock is shared by one report")
    func scopes() throws {
        // snippet: scopes
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { r in LiveReport(header: try r.resolve(), footer: try r.resolve()) }

        let report = try hive.resolve(Report.self)
        print(report.header === report.footer)  // true: one clock for this report
        // end-snippet
        #expect(report.header === report.footer)
    }

    @Test("Scopes and Lifetimes: a parent's transient is built from the child's view")
    func childHive() throws {
        // snippet: child-hive
        let app = ServiceHive()
        try app.register(TradeService.self) { LiveTradeService(label: "app") }
        try app.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        let request = ServiceHive(parent: app)
        try request.register(TradeService.self) { LiveTradeService(label: "request") }

        print(try request.resolve(Cart.self).trade.label)  // request: built from the child's view
        // end-snippet
        #expect(try request.resolve(Cart.self).trade.label == "request")
        #expect(try app.resolve(Cart.self).trade.label == "app")
    }
}
