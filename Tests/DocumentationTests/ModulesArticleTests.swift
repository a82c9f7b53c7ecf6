import ServiceHive
import Support
import Testing

// The code of the article "Modules and Startup", compiled and run here. `DocumentationSnippetTests` checks that the
// article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the README's.
enum ModulesArticle {
    /// What the shop sells: filled when the shop starts, closed when it stops.
    final class Catalog: Sendable {
        private let state = Locked<(items: [String], isOpen: Bool)>(([], false))
        var items: [String] { state.current.items }
        var isOpen: Bool { state.current.isOpen }
        func open(with items: [String]) { state.withLock { $0 = (items, true) } }
        func close() { state.withLock { $0.isOpen = false } }
    }

    final class Promotions: Sendable {
        private let discount = Locked(0)
        var percentOff: Int { discount.current }
        func begin(percentOff: Int) { discount.withLock { $0 = percentOff } }
    }

    protocol TradeService: Sendable {
        func quote(itemId: String) -> Int?
    }

    struct LiveTradeService: TradeService {
        let catalog: Catalog
        func quote(itemId: String) -> Int? { catalog.items.contains(itemId) ? 1_250 : nil }
    }

    protocol PricingService: Sendable {}
    struct StandardPricing: PricingService {}
    struct PremiumPricing: PricingService {}

    enum PaymentsError: Error {
        case gatewayUnreachable
    }

    protocol PaymentGateway: Sendable {
        func connect() async throws
    }

    struct LiveGateway: PaymentGateway {
        func connect() async throws { throw PaymentsError.gatewayUnreachable }
    }

    protocol Session: Sendable {
        var user: String { get }
    }

    struct UserSession: Session {
        let user: String
    }

    struct Basket: Sendable {
        let session: any Session
    }

    struct Receipt: Sendable {
        let orderNumber: Int
    }
}

// snippet: modules-module
extension ModulesArticle {
    struct SaleStarted: ServiceModuleEvent {
        let percentOff: Int
    }

    struct ShopModule: ServiceModule {
        var name: String { "Shop" }  // by default, the type's name
        var priority: Int { 50 }  // higher installs and starts first, and stops last; by default 0

        func register(in hive: ServiceHive) throws {
            try hive.register(Catalog.self, scope: .singleton) { Catalog() }
            try hive.register(Promotions.self, scope: .singleton) { Promotions() }
            try hive.register(TradeService.self) { r in LiveTradeService(catalog: try r.resolve()) }
        }

        func start(in hive: ServiceHive) async throws {
            try hive.resolve(Catalog.self).open(with: ["hive-42", "smoker"])  // every module has registered by now
        }

        func stop(in hive: ServiceHive) async {
            try? hive.resolve(Catalog.self).close()
        }

        func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
            guard let sale = event as? SaleStarted else { return }  // a module ignores the events it doesn't know
            try? hive.resolve(Promotions.self).begin(percentOff: sale.percentOff)
        }
    }

    @Suite("Modules and Startup: a module", .timeLimit(.minutes(5)))
    struct ModuleTests {
        @Test("a module registers, starts, handles an event and stops")
        func module() async throws {
            let hive = ServiceHive()
            try await hive.install(ShopModule())
            #expect(try hive.resolve(TradeService.self).quote(itemId: "hive-42") == 1_250, "started")
            await hive.broadcast(SaleStarted(percentOff: 20))
            #expect(hive.installedModules == ["Shop"])
            await hive.shutdown()
            // end-snippet
            #expect(try hive.resolve(Promotions.self).percentOff == 20)
            #expect(try hive.resolve(Catalog.self).isOpen == false, "stopped")
            #expect(hive.installedModules.isEmpty)
            #expect(hive.registrations.map(\.module) == ["Shop", "Shop", "Shop"], "the registrations stay")
        }

        // snippet: modules-validate
        @Test("the composition root is sound")
        func compositionRootIsSound() async throws {
            let hive = ServiceHive()
            try await hive.install(ShopModule())
            let report = hive.validate()
            #expect(report.isValid, "\(report)")
            #expect(report.passed.count == 3)
            #expect(try hive.resolve(Catalog.self).items == ["hive-42", "smoker"], "validation left the catalog alone")
        }
        // end-snippet
    }
}

// snippet: modules-rollback
extension ModulesArticle {
    struct PremiumPricingModule: ServiceModule {
        func register(in hive: ServiceHive) throws {
            hive.unregister(PricingService.self)  // replaces the standard pricing
            try hive.register(PricingService.self, scope: .singleton) { PremiumPricing() }
        }
    }

    struct PaymentsModule: ServiceModule {
        func register(in hive: ServiceHive) throws {
            try hive.register(PaymentGateway.self, scope: .singleton) { LiveGateway() }
        }

        func start(in hive: ServiceHive) async throws {
            try await hive.resolve(PaymentGateway.self).connect()  // throws: the gateway is unreachable
        }
    }

    @Suite("Modules and Startup: a failed install", .timeLimit(.minutes(5)))
    struct RollbackTests {
        @Test("a failed install restores what a module unregistered and removes what the install registered")
        func rollback() async throws {
            let caught = Locked<[String]>([])
            let hive = ServiceHive()
            try hive.register(PricingService.self, scope: .singleton) { StandardPricing() }
            do {
                try await hive.install([PremiumPricingModule(), PaymentsModule()])
            } catch ServiceHiveError.moduleFailed(let module, let stage, let underlying) {
                print(module, stage, underlying)  // PaymentsModule start gatewayUnreachable
                caught.withLock { $0.append("\(module) \(stage) \(underlying)") }
            }
            print(try hive.resolve(PricingService.self))  // StandardPricing(): restored
            // end-snippet
            #expect(caught.current == ["PaymentsModule start gatewayUnreachable"])
            #expect(try hive.resolve(PricingService.self) is StandardPricing)
            #expect(!hive.isRegistered(PaymentGateway.self))
            #expect(hive.registrations.count == 1 && hive.installedModules.isEmpty)
        }
    }
}

extension ModulesArticle {
    @Suite("Modules and Startup: validation and the graph", .timeLimit(.minutes(5)))
    struct ValidationTests {
        @Test("a plan validates request-scoped services and argument registrations with samples")
        func plan() throws {
            // snippet: modules-plan
            let app = ServiceHive()
            try app.register(Basket.self) { r in Basket(session: try r.resolve()) }
            try app.register(Receipt.self) { (_: ServiceHive.Resolver, orderNumber: Int) in
                Receipt(orderNumber: orderNumber)
            }

            let report = app.validate { plan in
                plan.provide(Session.self, UserSession(user: "sample"))  // each request's child hive provides it
                plan.arguments(for: Receipt.self, 1)  // a sample order number
            }
            print(report)  // Validated 2 registrations: 2 passed, 0 failed, 0 skipped.
            // end-snippet
            #expect("\(report)" == "Validated 2 registrations: 2 passed, 0 failed, 0 skipped.")
            let unplanned = app.validate()
            #expect(unplanned.failures.map(\.registration.service) == ["Basket"])
            #expect(unplanned.skipped.map(\.service) == ["Receipt"])
        }

        @Test("a child validates what it can see, its parent's registrations included, and leaves no trace")
        func child() throws {
            let builds = Locked(0)
            let app = ServiceHive()
            try app.register(Catalog.self, scope: .singleton) {
                builds.increment()
                return Catalog()
            }
            try app.register(Basket.self) { r in
                _ = try r.resolve(Catalog.self)
                return Basket(session: try r.resolve())
            }
            let request = app.child { $0.provide(Session.self, UserSession(user: "ada")) }
            let report = request.validate()
            #expect(report.isValid, "\(report)")
            #expect(report.passed.map(\.service) == ["Session", "Catalog", "Basket"])
            let built = builds.current
            _ = try app.resolve(Catalog.self)
            #expect(builds.current == built + 1, "the singleton that validation built was not cached")
        }

        @Test("the graph of the shop module, as Mermaid and as DOT")
        func graph() async throws {
            // snippet: modules-graph
            let hive = ServiceHive()
            try await hive.install(ShopModule())
            print(hive.validate().graph.mermaid)  // or .dot, for Graphviz
            // end-snippet
            let graph = hive.validate().graph
            #expect(
                graph.mermaid == """
                    flowchart LR
                        subgraph Shop["Shop"]
                            Catalog["Catalog<br/>singleton"]
                            Promotions["Promotions<br/>singleton"]
                            TradeService["TradeService<br/>transient"]
                        end
                        TradeService --> Catalog
                    """)
            #expect(graph.dot.hasPrefix("digraph ServiceHive {"))
            #expect(graph.dot.contains("\"TradeService\" -> \"Catalog\";"))
        }

        @Test("a missing service and a cycle are drawn in red")
        func red() throws {
            let hive = ServiceHive()
            try hive.register(Basket.self) { r in Basket(session: try r.resolve()) }
            let mermaid = hive.validate().graph.mermaid
            #expect(mermaid.contains("class Session missing"))
        }
    }
}
