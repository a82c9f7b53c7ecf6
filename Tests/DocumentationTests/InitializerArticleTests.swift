import ServiceHive
import Support
import Testing

// The code of the article "Registering by Initializer and Checking the Graph", compiled and run here.
// `DocumentationSnippetTests` checks that the article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the other articles'.
enum InitializerArticle {
    protocol Pricing: Sendable { func price(_ symbol: String) -> Int }
    protocol Ledger: Sendable { var entries: Int { get } }
    protocol Orders: Sendable { var pricing: any Pricing { get } }
    protocol HealthCheck: Sendable { var name: String { get } }
    protocol Session: Sendable {}

    final class FixedPricing: Pricing {
        func price(_ symbol: String) -> Int { symbol.count * 100 }
    }
    final class MemoryLedger: Ledger {
        let entries = 0
    }
    final class LiveOrders: Orders {
        let pricing: any Pricing
        let ledger: any Ledger
        init(pricing: any Pricing, ledger: any Ledger) {
            self.pricing = pricing
            self.ledger = ledger
        }
        convenience init(pricing: any Pricing) { self.init(pricing: pricing, ledger: MemoryLedger()) }
    }
    final class LedgerCheck: HealthCheck {
        let ledger: any Ledger
        var name: String { "ledger" }
        init(ledger: any Ledger) { self.ledger = ledger }
    }
    final class Dashboard: Sendable {
        let pricing: (any Pricing)?
        let ledger: ServiceHive.Lazy<any Ledger>
        let orders: ServiceHive.Provider<any Orders>
        let checks: [any HealthCheck]
        init(
            pricing: (any Pricing)?, ledger: ServiceHive.Lazy<any Ledger>, orders: ServiceHive.Provider<any Orders>,
            checks: [any HealthCheck]
        ) {
            self.pricing = pricing
            self.ledger = ledger
            self.orders = orders
            self.checks = checks
        }
    }
    final class Quote: Sendable {
        let total: Int
        init(symbol: String, quantity: Int, pricing: any Pricing) { total = pricing.price(symbol) * quantity }
    }
    final class UserSession: Session {}
    final class History: Sendable {
        let session: any Session
        init(session: any Session) { self.session = session }
    }

    @Suite("Registering by Initializer and Checking the Graph", .timeLimit(.minutes(5)))
    struct Tests {
        func registered() throws -> ServiceHive {
            let hive = ServiceHive()
            // snippet: initializer-basics
            try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
            try hive.register(Ledger.self, scope: .singleton, initializer: MemoryLedger.init)
            try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))

            let orders = try hive.resolve(Orders.self)
            // end-snippet
            #expect(orders.pricing.price("ab") == 200)
            return hive
        }

        @Test("the basics register by initializer, and the check finds nothing to report")
        func basics() throws {
            let hive = try registered()
            #expect(hive.check().isClean)
            #expect(hive.check().checked == 3)
        }

        @Test("each kind of parameter resolves as the table says")
        func parameters() throws {
            let hive = try registered()
            try hive.register(Orders.self, name: "unused", initializer: LiveOrders.init(pricing:))
            // snippet: initializer-parameters
            // Dashboard.init(pricing: (any Pricing)?, ledger: ServiceHive.Lazy<any Ledger>,
            //                orders: ServiceHive.Provider<any Orders>, checks: [any HealthCheck])
            try hive.contribute(HealthCheck.self, name: "ledger", scope: .singleton, initializer: LedgerCheck.init)
            try hive.register(Dashboard.self, initializer: Dashboard.init)
            // end-snippet
            let dashboard = try hive.resolve(Dashboard.self)
            #expect(dashboard.pricing?.price("a") == 100)
            #expect(try dashboard.ledger.instance.entries == 0)
            #expect(try dashboard.orders.instance.pricing.price("abc") == 300)
            #expect(dashboard.checks.map(\.name) == ["ledger"])
        }

        @Test("runtime arguments fill the leading parameters")
        func arguments() throws {
            let hive = try registered()
            // snippet: initializer-arguments
            // Quote.init(symbol: String, quantity: Int, pricing: any Pricing)
            try hive.register(
                Quote.self, arguments: String.self, Int.self, initializer: Quote.init(symbol:quantity:pricing:))
            let quote = try hive.resolve(Quote.self, arguments: "ACME", 3)
            // end-snippet
            #expect(quote.total == 1_200)
        }

        @Test("a closure declares its named dependency, and the check follows it")
        func declaring() throws {
            let hive = try registered()
            // snippet: declaring-closure
            try hive.register(Ledger.self, name: "audit", scope: .singleton, initializer: MemoryLedger.init)
            try hive.register(
                Orders.self, name: "audited", dependsOn: [.on(Pricing.self), .on(Ledger.self, name: "audit")]
            ) {
                r in LiveOrders(pricing: try r.resolve(), ledger: try r.resolve(name: "audit"))
            }
            // end-snippet
            #expect(hive.check().isClean)
            #expect(try hive.resolve(Orders.self, name: "audited").pricing.price("a") == 100)
            #expect(hive.unregister(Ledger.self, name: "audit"))
            #expect(hive.check().problems.map(\.code) == [20])
        }

        @Test("the check reports the captive session, as the article prints it")
        func checking() throws {
            let hive = ServiceHive()
            // snippet: checking
            try hive.register(Session.self, scope: .named("session"), initializer: UserSession.init)
            try hive.register(History.self, scope: .singleton, initializer: History.init)

            let report = hive.check()
            print(report.problems[0])
            // end-snippet
            let text = "\(report.problems[0])"
            #expect(
                text.hasPrefix("History, a singleton registered at DocumentationTests/InitializerArticleTests.swift:"))
            #expect(
                text.contains(
                    "would hold Session by its parameter 1 (Session), but it lives in the scope session, shorter than "
                        + "the singleton."))
        }
    }
}
