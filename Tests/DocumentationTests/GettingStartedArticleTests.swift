import ServiceHive
import Support
import Testing

// The code of the article "Getting Started", compiled and run here. `DocumentationSnippetTests` checks that the
// article and these regions stay the same.

/// The article's types. They live in a namespace of their own so that they don't clash with the types of the same
/// names that the README's snippets declare in this module.
enum GettingStartedArticle {
    protocol PricingService: Sendable {
        func unitPrice(of itemId: String) -> Int
    }

    struct StandardPricing: PricingService {
        func unitPrice(of itemId: String) -> Int { 1_250 }
    }

    struct MemberPricing: PricingService {
        func unitPrice(of itemId: String) -> Int { 1_000 }
    }

    protocol Clock: Sendable {
        var now: Int { get }
    }

    struct FixedClock: Clock {
        let now: Int
    }

    struct Checkout: Sendable {
        let pricing: any PricingService
        let clock: any Clock
    }

    struct Receipt: Sendable {
        let orderNumber: Int
        let issuedAt: Int
    }

    protocol Analytics: Sendable {}

    protocol Reader: AnyObject, Sendable {
        func read() -> String
    }

    protocol Writer: AnyObject, Sendable {
        func write(_ text: String)
    }

    final class LiveStore: Reader, Writer {
        private let text = Locked("")
        func read() -> String { text.current }
        func write(_ text: String) { self.text.withLock { $0 = text } }
    }

    protocol Database: Sendable {
        var name: String { get }
    }

    struct LiveDatabase: Database {
        let name: String

        static func connect() async throws -> LiveDatabase {
            await Task.yield()
            return LiveDatabase(name: "live")
        }
    }

    /// A notepad whose lines never change, so it is `Sendable`.
    final class FrozenNotepad: Notepad, Sendable {
        let lines: [String]
        init(lines: [String]) { self.lines = lines }
    }

    /// A notepad that anyone may write to, so it is not `Sendable`.
    final class ScratchNotepad: Notepad {
        var lines: [String] = []
    }

    /// The hive of the article's "Register services" section.
    static func registeredHive() throws -> ServiceHive {
        // snippet: getting-started-register
        let hive = ServiceHive()
        // A factory. The scope says how long the hive keeps what it builds; the default builds anew every time.
        try hive.register(PricingService.self, scope: .singleton) { StandardPricing() }
        // A variant of the same service, told apart by its name.
        try hive.register(PricingService.self, name: "member", scope: .singleton) { MemberPricing() }
        // A factory that resolves its own dependencies through the resolver it is given.
        try hive.register(Checkout.self) { r in Checkout(pricing: try r.resolve(), clock: try r.resolve()) }
        // A factory that takes runtime arguments, of any number and types.
        try hive.register(Receipt.self) { (r: ServiceHive.Resolver, orderNumber: Int) in
            Receipt(orderNumber: orderNumber, issuedAt: try r.resolve(Clock.self).now)
        }
        // An instance that already exists.
        try hive.register(Clock.self, instance: FixedClock(now: 1_700_000_000))
        // end-snippet
        return hive
    }
}

// snippet: getting-started
extension GettingStartedArticle {
    protocol TradeService: Sendable {
        func quote(itemId: String) -> Int
    }

    struct LiveTradeService: TradeService {
        func quote(itemId: String) -> Int { 1_250 }
    }

    @Suite("Getting Started: the opening example", .timeLimit(.minutes(5)))
    struct OpeningTests {
        @Test("a singleton registered against its protocol resolves by the protocol alone")
        func opening() throws {
            let hive = ServiceHive()
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }

            let trade: any TradeService = try hive.resolve()
            print(trade.quote(itemId: "hive-42"))  // 1250
            // end-snippet
            #expect(trade.quote(itemId: "hive-42") == 1_250)
            #expect(try hive.resolve(TradeService.self) is LiveTradeService)
        }

        @Test("the landing page's example resolves the singleton it registered")
        func landing() throws {
            // snippet: landing
            let hive = ServiceHive()
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }

            let trade: any TradeService = try hive.resolve()
            // end-snippet
            #expect(trade.quote(itemId: "hive-42") == 1_250)
        }
    }
}

extension GettingStartedArticle {
    @Suite("Getting Started: registering and resolving", .timeLimit(.minutes(5)))
    struct RegisteringTests {
        @Test("every form of register resolves: by inference, by name, with arguments, and as an Optional")
        func registerAndResolve() throws {
            let hive = try registeredHive()
            // snippet: getting-started-resolve
            let checkout: Checkout = try hive.resolve()  // the type comes from the context
            let member = try hive.resolve(PricingService.self, name: "member")
            let receipt = try hive.resolve(Receipt.self, arguments: 1_042)
            let analytics: (any Analytics)? = try hive.resolve()  // nil: nothing registers Analytics
            // end-snippet
            #expect(checkout.pricing.unitPrice(of: "hive-42") == 1_250)
            #expect(checkout.clock.now == 1_700_000_000)
            #expect(member.unitPrice(of: "hive-42") == 1_000)
            #expect(receipt.orderNumber == 1_042 && receipt.issuedAt == 1_700_000_000)
            #expect(analytics == nil)
        }

        @Test("registering a key twice throws alreadyRegistered and keeps the first registration")
        func duplicate() throws {
            let hive = try registeredHive()
            let second = Result { try hive.register(PricingService.self, scope: .singleton) { MemberPricing() } }
            guard case .failure(ServiceHiveError.alreadyRegistered(let key, _, _)) = second else {
                Issue.record("expected alreadyRegistered, got \(second)")
                return
            }
            #expect(key == ServiceHive.ServiceKey(PricingService.self))
            #expect(try hive.resolve(PricingService.self).unitPrice(of: "hive-42") == 1_250)
        }

        @Test("an Optional gives nil only for a missing registration; a factory's failure still throws")
        func optionalStillThrows() throws {
            let hive = ServiceHive()
            try hive.register(Checkout.self) { r in Checkout(pricing: try r.resolve(), clock: try r.resolve()) }
            let missing = Result { try hive.resolve(Checkout?.self) }
            guard case .failure(ServiceHiveError.notRegistered(let key, let chain)) = missing else {
                Issue.record("expected notRegistered, got \(missing)")
                return
            }
            #expect(key.service == "PricingService" && chain.map(\.service) == ["Checkout"])
        }

        @Test("a forwarded protocol resolves the target's one instance")
        func forward() throws {
            let hive = ServiceHive()
            // snippet: getting-started-forward
            try hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
            try hive.forward(Reader.self, to: LiveStore.self) { $0 }
            try hive.forward(Writer.self, to: LiveStore.self) { $0 }

            try hive.resolve(Writer.self).write("hello")
            print(try hive.resolve(Reader.self).read())  // hello: one LiveStore behind both protocols
            // end-snippet
            #expect(try hive.resolve(Reader.self).read() == "hello")
            #expect(try hive.resolve(Reader.self) === hive.resolve(LiveStore.self))
            #expect(try hive.resolve(Writer.self) === hive.resolve(LiveStore.self))
            #expect(hive.registrations.compactMap(\.forwardsTo?.service) == ["LiveStore", "LiveStore"])
            hive.unregister(LiveStore.self)
            #expect(!hive.isRegistered(Reader.self) && !hive.isRegistered(Writer.self))
        }

        @Test("an async factory is built by resolveAsync, and a synchronous resolve says to await it")
        func asyncFactory() async throws {
            let hive = ServiceHive()
            // snippet: getting-started-async
            try hive.register(Database.self, scope: .singleton) { _ async throws in try await LiveDatabase.connect() }
            let database = try await hive.resolveAsync(Database.self)
            // end-snippet
            #expect(database.name == "live")
            let synchronous = Result { try hive.resolve(Database.self) }
            guard case .failure(ServiceHiveError.requiresAsync(let key, chain: [])) = synchronous else {
                Issue.record("expected requiresAsync, got \(synchronous)")
                return
            }
            #expect(key.service == "Database")
        }
    }
}

// snippet: getting-started-deferred
extension GettingStartedArticle {
    struct Reporter: Sendable {
        let clock: ServiceHive.Lazy<any Clock>  // resolved on the first read, then kept
        let checkouts: ServiceHive.Provider<Checkout>  // resolved on every read
    }

    @Suite("Getting Started: resolving later", .timeLimit(.minutes(5)))
    struct DeferredTests {
        @Test("a Lazy resolves on its first read and keeps the instance; a Provider resolves on every read")
        func deferred() throws {
            let hive = try registeredHive()
            let builds = Locked(0)
            hive.unregister(Checkout.self)
            try hive.register(Checkout.self) { r in
                builds.increment()
                return Checkout(pricing: try r.resolve(), clock: try r.resolve())
            }

            try hive.register(Reporter.self, scope: .singleton) { r in
                Reporter(clock: try r.resolve(), checkouts: try r.resolve())
            }
            let reporter = try hive.resolve(Reporter.self)  // has resolved neither Clock nor Checkout yet
            #expect(builds.current == 0)
            let stamp = try reporter.clock.instance.now
            let checkout = try reporter.checkouts.instance  // a new transient Checkout
            // end-snippet
            #expect(stamp == 1_700_000_000)
            #expect(checkout.clock.now == 1_700_000_000)
            _ = try reporter.checkouts.instance
            #expect(builds.current == 2, "a Provider resolves on every read")
        }

        @Test("a Lazy read inside overrides sees them, and keeps what it resolved there")
        func lazySeesTheOverridesOfItsFirstRead() throws {
            let hive = try registeredHive()
            try hive.register(Reporter.self) { r in Reporter(clock: try r.resolve(), checkouts: try r.resolve()) }
            let reporter = try hive.resolve(Reporter.self)
            let stamp = try hive.withOverrides {
                $0.register(Clock.self) { FixedClock(now: 0) }
            } operation: {
                try reporter.clock.instance.now
            }
            #expect(stamp == 0)
            #expect(try reporter.clock.instance.now == 0, "kept after the overrides ended")
        }
    }
}

// snippet: getting-started-notepad
extension GettingStartedArticle {
    protocol Notepad: AnyObject {  // not Sendable
        var lines: [String] { get }
    }
}
// end-snippet

extension GettingStartedArticle {
    @Suite("Getting Started: Sendable services", .timeLimit(.minutes(5)))
    struct SendableTests {
        @Test("a registration of any Notepad & Sendable resolves under both spellings, as one instance")
        func sendable() throws {
            let hive = ServiceHive()
            // snippet: getting-started-sendable
            try hive.register((any Notepad & Sendable).self, scope: .singleton) { FrozenNotepad(lines: ["milk"]) }
            let shared = try hive.resolve((any Notepad & Sendable).self)  // may cross into other tasks
            let plain = try hive.resolve((any Notepad).self)  // the same registration, the same instance
            // end-snippet
            #expect(shared === plain)
            #expect(plain.lines == ["milk"])
        }

        @Test("a registration of plain any Notepad is refused to a resolve typed as Sendable")
        func notSendable() throws {
            let hive = ServiceHive()
            try hive.register((any Notepad).self) { ScratchNotepad() }
            let refused = Result { try hive.resolve((any Notepad & Sendable).self) }
            guard case .failure(ServiceHiveError.notSendable(let key, chain: [])) = refused else {
                Issue.record("expected notSendable, got \(refused)")
                return
            }
            #expect(key.service == "Notepad")
            #expect(try hive.resolve((any Notepad).self) is ScratchNotepad)
        }
    }
}

extension GettingStartedArticle {
    @Suite("Getting Started: errors and diagnostics", .timeLimit(.minutes(5)))
    struct ErrorTests {
        @Test("a missing dependency is caught as notRegistered, with the chain that needed it and a fix")
        func errors() throws {
            let caught = Locked<[String]>([])
            // snippet: getting-started-errors
            let hive = ServiceHive()
            try hive.register(PricingService.self) { StandardPricing() }
            try hive.register(Checkout.self) { r in Checkout(pricing: try r.resolve(), clock: try r.resolve()) }

            do {
                _ = try hive.resolve(Checkout.self)
            } catch ServiceHiveError.notRegistered(let key, let chain) {
                print(key, chain)  // Clock [Checkout]
                caught.withLock { $0.append("\(key) \(chain)") }
            } catch {
                print(error)  // any other ServiceHiveError
                caught.withLock { $0.append("other: \(error)") }
            }
            // end-snippet
            #expect(caught.current == ["Clock [Checkout]"])
            let error = Result { try hive.resolve(Checkout.self) }
            guard case .failure(let thrown) = error else {
                Issue.record("expected a failure")
                return
            }
            #expect(
                "\(thrown)"
                    == "Clock is not registered (needed by Checkout). To fix, register it before resolving: "
                    + "try hive.register(Clock.self) { … }")
        }

        @Test("the trace handler receives the tree of a resolve, and the failure handler every failed resolve")
        func trace() throws {
            let hive = try registeredHive()
            _ = try hive.resolve(Checkout.self)  // builds the pricing singleton, as the article's earlier resolves do
            // snippet: getting-started-trace
            hive.trace = { trace in print(trace) }
            _ = try hive.resolve(Checkout.self)
            // Checkout (transient) built in 14 µs
            // ├─ PricingService (singleton) cached
            // └─ Clock (singleton) cached
            hive.trace = nil
            hive.onResolutionFailure = { error in print("resolve failed: \(error)") }
            // end-snippet
            let traces = Locked<[String]>([])
            let failures = Locked<[String]>([])
            hive.trace = { trace in traces.withLock { $0.append("\(trace)") } }
            hive.onResolutionFailure = { error in failures.withLock { $0.append("\(error)") } }
            _ = try hive.resolve(Checkout.self)
            hive.trace = nil
            _ = try? hive.resolve(Analytics.self)
            let lines = traces.current.first?.components(separatedBy: "\n") ?? []
            #expect(lines.count == 3)
            #expect(lines.first?.hasPrefix("Checkout (transient) built in ") == true)
            #expect(lines.first?.hasSuffix(" µs") == true)
            #expect(
                Array(lines.dropFirst()) == ["├─ PricingService (singleton) cached", "└─ Clock (singleton) cached"])
            #expect(failures.current.count == 1)
            #expect(failures.current.first?.hasPrefix("Analytics is not registered.") == true)
        }
    }
}
