import ServiceHive
import ServiceHiveTesting
import Support
import Testing

// The code of the article "Testing with Overrides", compiled and run here. `DocumentationSnippetTests` checks that the
// article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the README's.
enum TestingArticle {
    protocol TradeService: Sendable {
        func quote(itemId: String) -> Int
    }

    struct LiveTradeService: TradeService {
        func quote(itemId: String) -> Int { 1_250 }
    }

    struct MockTradeService: TradeService {
        func quote(itemId: String) -> Int { 0 }
    }

    struct SevenTradeService: TradeService {
        func quote(itemId: String) -> Int { 7 }
    }

    /// What the shop sells: filled once, at startup.
    final class Catalog: Sendable {
        private let stock = Locked<[String]>([])
        var items: [String] { stock.current }
        func add(_ item: String) { stock.withLock { $0.append(item) } }
    }

    final class Checkout: Sendable {
        let trade: any TradeService
        init(trade: any TradeService) { self.trade = trade }
        func total(of itemId: String) -> Int { trade.quote(itemId: itemId) }
    }

    /// Registers the shop's services, and fills the catalog when it starts.
    struct ShopModule: ServiceModule {
        func register(in hive: ServiceHive) throws {
            try hive.register(TradeService.self) { LiveTradeService() }
            try hive.register(Catalog.self, scope: .singleton) { Catalog() }
            try hive.register(Checkout.self, scope: .singleton) { r in Checkout(trade: try r.resolve()) }
        }

        func start(in hive: ServiceHive) async throws {
            try hive.resolve(Catalog.self).add("hive-42")
        }
    }

    /// The hive the code under test resolves from.
    enum Shop {
        static let hive: ServiceHive = {
            let hive = ServiceHive()
            try! hive.register(TradeService.self) { LiveTradeService() }
            try! hive.register(Catalog.self, scope: .singleton) { Catalog() }
            return hive
        }()
    }

    /// A hive with the live trade service and a catalog.
    static func shopHive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Catalog.self, scope: .singleton) { Catalog() }
        return hive
    }
}

extension TestingArticle {
    @Suite("Testing with Overrides: withOverrides", .timeLimit(.minutes(5)))
    struct OverrideTests {
        @Test("an override is seen inside the operation only")
        func overrides() throws {
            let hive = try shopHive()
            // snippet: testing-overrides
            try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                let trade = try hive.resolve(TradeService.self)  // the mock
                #expect(trade.quote(itemId: "hive-42") == 0)
            }
            // end-snippet
            #expect(try hive.resolve(TradeService.self).quote(itemId: "hive-42") == 1_250)
        }

        @Test("a second override of the same service in one builder replaces the first, as an assignment does")
        func secondOverrideReplaces() throws {
            let hive = try shopHive()
            // snippet: testing-replace
            let quote = hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
                $0.register(TradeService.self) { SevenTradeService() }  // replaces the first
            } operation: {
                (try? hive.resolve(TradeService.self))?.quote(itemId: "hive-42")  // 7
            }
            // end-snippet
            #expect(quote == 7)
        }

        @Test("child tasks see the overrides, Task.detached does not, and nested overrides win until they end")
        func whatSeesThem() async throws {
            let hive = try shopHive()
            let (child, detached) = try await within("the child and the detached task") {
                try await hive.withOverrides {
                    $0.register(TradeService.self) { MockTradeService() }
                } operation: {
                    async let child = try hive.resolve(TradeService.self).quote(itemId: "hive-42")
                    let detached = try await Task.detached { try hive.resolve(TradeService.self) }.value
                    return (try await child, detached.quote(itemId: "hive-42"))
                }
            }
            #expect(child == 0)
            #expect(detached == 1_250)
        }

        @Test("nested overrides win until they end, and the outer ones are back after")
        func nested() throws {
            let hive = try shopHive()
            try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                let nested = try hive.withOverrides {
                    $0.register(TradeService.self) { LiveTradeService() }
                } operation: {
                    try hive.resolve(TradeService.self).quote(itemId: "hive-42")
                }
                #expect(nested == 1_250)
                let outer = try hive.resolve(TradeService.self).quote(itemId: "hive-42")
                #expect(outer == 0)
            }
        }

        @Test("only the instances built from an override are the test's own")
        func precise() throws {
            // snippet: testing-precise
            let hive = ServiceHive()
            try hive.register(TradeService.self) { LiveTradeService() }
            try hive.register(Catalog.self, scope: .singleton) { Catalog() }
            try hive.register(Checkout.self, scope: .singleton) { r in Checkout(trade: try r.resolve()) }

            try hive.resolve(Catalog.self).add("hive-42")  // as a module's start() would
            let liveCheckout = try hive.resolve(Checkout.self)

            try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                let catalog = try hive.resolve(Catalog.self)  // the app's catalog, hive-42 included
                let checkout = try hive.resolve(Checkout.self)  // a checkout of the test's own, built with the mock
                #expect(catalog.items == ["hive-42"])
                #expect(checkout !== liveCheckout)
                #expect(checkout.total(of: "hive-42") == 0)
                #expect(try hive.resolve(Checkout.self) === checkout, "shared within the overrides")
            }
            #expect(try hive.resolve(Checkout.self) === liveCheckout)  // untouched outside
            // end-snippet
        }

        @Test("a strict override scope fails on a service it does not override, and names it")
        func strict() throws {
            let hive = try shopHive()
            let refused = Locked<(any Error)?>(nil)
            // snippet: testing-strict
            try hive.withOverrides(strict: true) {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                let trade = try hive.resolve(TradeService.self)  // the mock
                #expect(throws: ServiceHiveError.self) { try hive.resolve(Catalog.self) }  // not overridden
                #expect(trade.quote(itemId: "hive-42") == 0)
                do { _ = try hive.resolve(Catalog.self) } catch { refused.withLock { $0 = error } }
            }
            // end-snippet
            guard let error = refused.current as? ServiceHiveError, case .notOverridden(let key, chain: []) = error
            else {
                Issue.record("expected notOverridden, got \(String(describing: refused.current))")
                return
            }
            #expect(key.service == "Catalog")
            #expect("\(error)".hasPrefix("Catalog is not overridden in this strict withOverrides."))
        }
    }
}

extension TestingArticle {
    @Suite("Testing with Overrides: the trait on a test", .timeLimit(.minutes(5)))
    struct TraitTests {
        // snippet: testing-trait
        @Test(
            "a quote comes from the mock",
            .serviceOverrides(hive: Shop.hive) { $0.register(TradeService.self) { MockTradeService() } }
        )
        func quotesWithTheMock() throws {
            let trade = try Shop.hive.resolve(TradeService.self)  // the mock
            #expect(trade.quote(itemId: "hive-42") == 0)
        }
        // end-snippet

        @Test("without the trait, the same hive resolves its live service")
        func live() throws {
            #expect(try Shop.hive.resolve(TradeService.self).quote(itemId: "hive-42") == 1_250)
        }
    }
}

// snippet: testing-suite
extension TestingArticle {
    enum CheckoutSuite {
        static let hive = ServiceHive()
    }

    @Suite(
        "Checkout",
        .timeLimit(.minutes(5)),
        .modulesInstalled([ShopModule()], in: CheckoutSuite.hive),
        .serviceOverrides(hive: CheckoutSuite.hive) { $0.register(TradeService.self) { MockTradeService() } }
    )
    struct CheckoutTests {
        @Test("checking out uses the mock")
        func checksOutWithTheMock() throws {
            let checkout = try CheckoutSuite.hive.resolve(Checkout.self)  // built by the module, with the mock
            #expect(checkout.total(of: "hive-42") == 0)
        }

        @Test("every test shares the catalog the module filled")
        func sharesTheModulesCatalog() throws {
            let catalog = try CheckoutSuite.hive.resolve(Catalog.self)  // filled by ShopModule's start()
            #expect(catalog.items == ["hive-42"])
        }

        @Test("the modules are installed before the first test, and each test's checkout is its own")
        func installedOnce() async throws {
            #expect(CheckoutSuite.hive.installedModules == ["ShopModule"])
            let mine = try CheckoutSuite.hive.resolve(Checkout.self)
            let outside = try await within("a resolve outside the overrides") {
                try await Task.detached { try CheckoutSuite.hive.resolve(Checkout.self) }.value
            }
            #expect(mine !== outside, "the checkout outside the overrides is the module's live one")
            #expect(outside.total(of: "hive-42") == 1_250)
        }
    }
}
// end-snippet

extension TestingArticle {
    @Suite("Testing with Overrides: a hive of the test's own", .timeLimit(.minutes(5)))
    struct TestHiveTests {
        // snippet: testing-test-hive
        @Test(.testHive { $0.register(TradeService.self) { MockTradeService() } })
        func checksOutInAHiveOfItsOwn() async throws {
            let hive = try TestHiveTrait.current  // new for each test case
            try await hive.install([ShopModule()])  // as the app's wiring installs its modules, each run
            let checkout = try hive.resolve(Checkout.self)  // built with the mock
            #expect(checkout.total(of: "hive-42") == 0)
        }
        // end-snippet
    }
}

// snippet: testing-wrappers
extension TestingArticle {
    struct CheckoutView {
        @ServiceHive.Injected(hive: Shop.hive) var trade: any TradeService  // resolved when the view is made
        @ServiceHive.LazyInjected(hive: Shop.hive) var catalog: Catalog  // resolved on the first read
    }

    @Suite("Testing with Overrides: property wrappers", .timeLimit(.minutes(5)))
    struct WrapperTests {
        @Test("an Injected property keeps what it resolved in the overrides where its owner was made")
        func wrappers() throws {
            let view = Shop.hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                CheckoutView()  // trade is the mock
            }
            print(view.trade.quote(itemId: "hive-42"))  // 0: resolved inside the overrides, kept after them
            // end-snippet
            #expect(view.trade.quote(itemId: "hive-42") == 0)
            #expect(try view.$trade.instance.quote(itemId: "hive-42") == 0)
            #expect(try view.catalog === Shop.hive.resolve(Catalog.self))
        }

        @Test("a LazyInjected property sees the overrides of its first read")
        func lazyWrapper() throws {
            let view = CheckoutView()
            let catalog = Catalog()
            let inside = Shop.hive.withOverrides {
                $0.register(Catalog.self, instance: catalog)
            } operation: {
                view.catalog
            }
            #expect(inside === catalog)
            #expect(view.catalog === catalog, "kept after the overrides ended")
            #expect(view.trade.quote(itemId: "hive-42") == 1_250, "made outside any overrides")
        }

        @Test("the projected value throws the resolve's error instead of trapping")
        func projectedValueThrows() throws {
            let empty = ServiceHive()
            let trade = ServiceHive.Injected<any TradeService>(hive: empty)
            let refused = Result { try trade.instance }
            guard case .failure(ServiceHiveError.notRegistered(let key, chain: [])) = refused else {
                Issue.record("expected notRegistered, got \(refused)")
                return
            }
            #expect(key.service == "TradeService")
        }
    }
}
