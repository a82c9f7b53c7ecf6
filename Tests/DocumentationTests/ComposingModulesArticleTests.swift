import ServiceHive
import Support
import Testing

// The code of the article "Composing Modules", compiled and run here. `DocumentationSnippetTests` checks that the
// article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the other articles'.
enum ComposingArticle {
    protocol PricingService: Sendable {
        func loadPrices() async throws
        func price(of itemId: String) -> Int?
    }

    /// Prices that are loaded when the pricing module starts, and unknown before.
    final class CatalogPricing: PricingService {
        private let prices = Locked<[String: Int]>([:])
        func loadPrices() async throws { prices.withLock { $0 = ["hive-42": 1_250, "honey-jar": 899] } }
        func price(of itemId: String) -> Int? { prices.current[itemId] }
    }

    struct PricesNotLoaded: Error {}

    protocol OrderService: Sendable {
        var pending: [String: Int] { get }
        func reprice() throws
    }

    /// Orders left open at the last shutdown, repriced when the orders module starts: it needs the prices loaded.
    final class LiveOrders: OrderService {
        let pricing: any PricingService
        private let totals = Locked<[String: Int]>([:])
        init(pricing: any PricingService) { self.pricing = pricing }
        var pending: [String: Int] { totals.current }
        func reprice() throws {
            guard let price = pricing.price(of: "hive-42") else { throw PricesNotLoaded() }
            totals.withLock { $0["order-7"] = 2 * price }
        }
    }

    struct Checkout: Sendable {
        let orders: any OrderService
        let pricing: any PricingService
    }

    /// A module without its declarations, to show what they change.
    struct Undeclared: ServiceModule {
        let module: any ServiceModule
        var name: String { module.name }
        func register(in hive: ServiceHive) throws { try module.register(in: hive) }
        func start(in hive: ServiceHive) async throws { try await module.start(in: hive) }
    }
}

// snippet: composing-declare
extension ComposingArticle {
    struct PricingModule: ServiceModule {
        var provides: [ServiceHive.ServiceReference] { [.service(PricingService.self)] }

        func register(in hive: ServiceHive) throws {
            try hive.register(PricingService.self, scope: .singleton) { CatalogPricing() }
        }

        func start(in hive: ServiceHive) async throws {
            try await hive.resolve(PricingService.self).loadPrices()
        }
    }

    struct OrdersModule: ServiceModule {
        var needs: [ServiceHive.ServiceReference] { [.service(PricingService.self)] }
        var provides: [ServiceHive.ServiceReference] { [.service(OrderService.self)] }

        func register(in hive: ServiceHive) throws {
            try hive.register(OrderService.self, scope: .singleton) { r in LiveOrders(pricing: try r.resolve()) }
        }

        func start(in hive: ServiceHive) async throws {
            try hive.resolve(OrderService.self).reprice()  // the prices are loaded: PricingModule started first
        }
    }

    @Suite("Composing Modules: declaring needs and provisions", .timeLimit(.minutes(5)))
    struct DeclareTests {
        @Test("the module that needs pricing installs after the one that provides it, in whatever order they are given")
        func order() async throws {
            let hive = ServiceHive()
            try await hive.install([OrdersModule(), PricingModule()])  // in any order
            print(hive.installedModules)  // ["PricingModule", "OrdersModule"]
            // end-snippet
            #expect(hive.installedModules == ["PricingModule", "OrdersModule"])
            #expect(try hive.resolve(OrderService.self).pending == ["order-7": 2_500])

            let undeclared = ServiceHive()
            await #expect(throws: ServiceHiveError.self, "without the declarations, Orders starts first and fails") {
                try await undeclared.install([Undeclared(module: OrdersModule()), Undeclared(module: PricingModule())])
            }
        }
    }
}

// snippet: composing-unmet
extension ComposingArticle {
    struct CheckoutModule: ServiceModule {
        var needs: [ServiceHive.ServiceReference] {
            [.service(OrderService.self), .service(PricingService.self, name: "premium")]
        }

        func register(in hive: ServiceHive) throws {
            try hive.register(Checkout.self) { r in
                Checkout(orders: try r.resolve(), pricing: try r.resolve(PricingService.self, name: "premium"))
            }
        }
    }

    @Suite("Composing Modules: an unmet need", .timeLimit(.minutes(5)))
    struct UnmetTests {
        @Test("a need nobody provides fails the install before any module registers")
        func unmet() async throws {
            let caught = Locked<[String]>([])
            let hive = ServiceHive()
            do {
                try await hive.install([CheckoutModule(), OrdersModule(), PricingModule()])
            } catch ServiceHiveError.unmetNeed(let module, let service, _) {
                print(module, service)  // CheckoutModule PricingService (name: "premium")
                caught.withLock { $0.append("\(module) \(service)") }
            }
            // end-snippet
            #expect(caught.current == [#"CheckoutModule PricingService (name: "premium")"#])
            #expect(hive.registrations.isEmpty)
            let thrown = await #expect(throws: ServiceHiveError.self) {
                try await hive.install([CheckoutModule(), OrdersModule(), PricingModule()])
            }
            #expect(
                thrown?.description
                    == #"Module CheckoutModule needs PricingService (name: "premium"), which no module of this install "#
                    + "provides and the hive has not registered. OrdersModule provides OrderService; PricingModule "
                    + "provides PricingService. Nothing was registered. To fix, install CheckoutModule with the module "
                    + #"that registers PricingService (name: "premium") and lists it in its `provides`, or register "#
                    + #"PricingService (name: "premium") before installing: "#
                    + #"try hive.register(PricingService.self, name: "premium") { … }"#)
        }
    }
}

extension ComposingArticle {
    @Suite("Composing Modules: a need missing later, and the graph", .timeLimit(.minutes(5)))
    struct LaterTests {
        @Test("a need unregistered after the install is named in the error of what misses it")
        func missingLater() async throws {
            // snippet: composing-miss
            let hive = ServiceHive()
            try await hive.install([OrdersModule(), PricingModule()])
            hive.unregister(PricingService.self)  // a later change takes it away

            let report = hive.validate()
            print(report.failures[0].error)
            // end-snippet
            #expect(
                report.failures.map(\.error.description) == [
                    "PricingService is not registered (needed by OrderService); module OrdersModule needs it "
                        + "(declared in its `needs`), so it was registered when OrdersModule was installed and has "
                        + "been unregistered since. To fix, register it again: "
                        + "try hive.register(PricingService.self) { … }"
                ])
        }

        @Test("the graph draws the needs as dotted links, and the provisions with a thick border")
        func graph() async throws {
            // snippet: composing-graph
            let hive = ServiceHive()
            try await hive.install([OrdersModule(), PricingModule()])
            print(hive.validate().graph.mermaid)
            // end-snippet
            #expect(
                hive.validate().graph.mermaid == """
                    flowchart LR
                        subgraph OrdersModule["OrdersModule"]
                            OrderService["OrderService<br/>singleton"]
                        end
                        subgraph PricingModule["PricingModule"]
                            PricingService["PricingService<br/>singleton"]
                        end
                        OrderService --> PricingService
                        OrdersModule -. needs .-> PricingService
                        classDef provided stroke-width:3px
                        class OrderService,PricingService provided
                    """)
        }
    }
}
