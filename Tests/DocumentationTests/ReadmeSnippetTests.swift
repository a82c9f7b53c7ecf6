import ServiceHive
import ServiceHiveTesting
import Synchronization
import Testing

// Examples of registering, scopes, request hives, diagnostics and validation, as a user writes them, compiled and run;
// the README and the articles share their types (Reader, Writer, LiveStore, Shop).

protocol Reader: AnyObject, Sendable { func read() -> String }
protocol Writer: AnyObject, Sendable { func write(_ text: String) }

final class LiveStore: Reader, Writer {
    private let text = Mutex("")
    func read() -> String { text.withLock { $0 } }
    func write(_ text: String) { self.text.withLock { $0 = text } }
}

protocol Clock: Sendable { var now: Int { get } }
struct SystemClock: Clock { var now: Int { 1_000 } }
struct FixedClock: Clock { var now: Int { 0 } }

struct Reporter: Sendable {
    let clock: ServiceHive.Lazy<any Clock>
    func stamp() throws -> Int { try clock.instance.now }
}

final class Parent: @unchecked Sendable {  // its hook sets `child` once, before anyone else sees it
    var child: Child?
}

final class Child: Sendable {
    weak let parent: Parent?  // weak, so that the two objects that point at each other are released
    init(parent: Parent) { self.parent = parent }
}

protocol Database: Sendable { var name: String { get } }
struct LiveDatabase: Database {
    let name: String
    static func connect() async throws -> LiveDatabase { LiveDatabase(name: "live") }
}

protocol Session: Sendable { var user: String { get } }
struct SignedInSession: Session { let user: String }

protocol Basket: AnyObject, Sendable { var user: String { get } }
final class LiveBasket: Basket {
    let user: String
    init(session: any Session) { user = session.user }
}

struct CheckoutView {
    @ServiceHive.Injected(hive: Shop.hive) var trade: any TradeService  // resolved when the view is made
    @ServiceHive.LazyInjected(hive: Shop.hive) var clock: any Clock  // resolved on first read
}

enum Shop {
    static let hive: ServiceHive = {
        let hive = ServiceHive()
        try! hive.register(TradeService.self) { LiveTradeService() }
        try! hive.register(Clock.self) { SystemClock() }
        return hive
    }()
}

/// Signs in user-1, user-2, … in turn.
final class Accounts: Sendable {
    private let signIns = Mutex(0)
    func signedInUser() -> String { "user-\(signIns.withLock { $0 += 1; return $0 })" }
}

extension ServiceHive.Scope {
    static let session = Self.named("session")
}

@Suite("Usage examples", .timeLimit(.minutes(5)))
struct ReadmeSnippetTests {
    @Test("a named scope drops the session's instances on log out, and keeps singletons")
    func namedScope() throws {
        let hive = ServiceHive()
        let accounts = Accounts()
        try hive.register(Session.self, scope: .session) { SignedInSession(user: accounts.signedInUser()) }
        try hive.register(Basket.self, scope: .session) { r in LiveBasket(session: try r.resolve()) }
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }

        let basket = try hive.resolve(Basket.self)  // user-1's
        hive.resetInstances(in: .session)  // log out: every session instance goes, and all built from one
        let next = try hive.resolve(Basket.self)  // user-2's
        #expect(basket.user == "user-1")
        #expect(next.user == "user-2")
        #expect(basket !== next)
    }

    @Test("the hive forwards, defers, links two objects and awaits an async factory")
    func capabilities() async throws {
        let hive = ServiceHive()
        // One instance under several protocols. `{ $0 }` lets the compiler check that LiveStore conforms.
        try hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
        try hive.forward(Reader.self, to: LiveStore.self) { $0 }
        try hive.forward(Writer.self, to: LiveStore.self) { $0 }

        // A Lazy resolves on first use and keeps the instance; a Provider resolves on every use.
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Reporter.self) { r in Reporter(clock: try r.resolve()) }

        // Two objects of one graph that point at each other: the hook runs once the parent is in its graph.
        try hive.register(Child.self) { r in Child(parent: try r.resolve()) }
        try hive.register(Parent.self, scope: .graph) { _ in
            Parent()
        } completed: { r, parent in
            parent.child = try r.resolve(Child.self)
        }

        // An async factory, built exactly once however many tasks ask: resolve it with resolveAsync.
        try hive.register(Database.self, scope: .singleton) { _ async throws in try await LiveDatabase.connect() }
        let database = try await hive.resolveAsync(Database.self)
        try hive.resolve(Writer.self).write("hello")
        #expect(try hive.resolve(Reader.self).read() == "hello")
        #expect(try hive.resolve(Reader.self) === hive.resolve(LiveStore.self))
        #expect(try hive.resolve(Reporter.self).stamp() == 1_000)
        let parent = try hive.resolve(Parent.self)
        #expect(parent.child?.parent === parent)
        #expect(database.name == "live")
    }

    @Test("the property wrappers resolve from the hive they name")
    func propertyWrappers() throws {
        let view = CheckoutView()
        #expect(view.trade.quote(itemId: "hive-42") == 1_250)
        #expect(view.clock.now == 1_000)
        #expect(try view.$trade.instance.quote(itemId: "hive-42") == 1_250)
    }

    @Test("a request hive provides the request's session, and the app's transients are built with it")
    func requestHive() throws {
        let app = ServiceHive()
        try app.register(Basket.self) { r in LiveBasket(session: try r.resolve()) }
        let session = SignedInSession(user: "ada")
        let request = app.child { $0.provide(Session.self, session) }
        let basket = try request.resolve(Basket.self)  // built with this request's session
        #expect(basket.user == "ada")
        #expect(!app.isRegistered(Session.self))
    }

    @Test("strict overrides fail on a service the test did not override")
    func strict() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.withOverrides(strict: true) {
            $0.register(Clock.self) { FixedClock() }
        } operation: {
            let clock = try hive.resolve(Clock.self)  // the override
            #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }  // notOverridden
            #expect(clock.now == 0)
        }
    }

    @Test("a trace hands the handler a tree of one resolve")
    func trace() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        try hive.register(Reporter.self) { r in Reporter(clock: try r.resolve()) }
        let traces = Mutex<[ServiceHive.Trace]>([])
        let failures = Mutex<[String]>([])
        hive.trace = { trace in traces.withLock { $0.append(trace) } }  // or print(trace)
        hive.onResolutionFailure = { error in failures.withLock { $0.append("\(error)") } }  // log every failure
        _ = try hive.resolve(Reporter.self)
        _ = try? hive.resolve(Database.self)
        hive.trace = nil
        #expect(traces.withLock { $0.map(\.root.key.service) } == ["Reporter", "Database"])
        #expect(failures.withLock { $0.count } == 1)
    }

    @Test("validation with a plan validates request-scoped services with a sample, and draws the graph")
    func validationPlan() throws {
        let app = ServiceHive()
        try app.register(Basket.self) { r in LiveBasket(session: try r.resolve()) }
        try app.register(TradeService.self) { LiveTradeService() }
        let report = app.validate { plan in
            plan.provide(Session.self, SignedInSession(user: "sample"))  // provided per request in real use
        }
        print(report.graph.mermaid)  // or .dot, for Graphviz
        #expect(report.isValid)
        #expect(report.graph.mermaid.hasPrefix("flowchart"))
    }

    @Test(.serviceOverrides(hive: Shop.hive, strict: true) { $0.register(Clock.self) { FixedClock() } })
    func stampsWithTheFixedClock() throws {
        #expect(try Shop.hive.resolve(Clock.self).now == 0)
    }
}
