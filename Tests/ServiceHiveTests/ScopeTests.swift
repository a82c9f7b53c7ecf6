import Foundation
import ServiceHive
import Support
import Testing

/// What each scope keeps, for how long, and what resets drop.
@Suite("Scopes", .timeLimit(.minutes(5)))
struct ScopeTests {
    @Test("a singleton is built lazily, once, and shared")
    func singleton() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        #expect(builds.current == 0, "nothing is built at registration")

        let first = try hive.resolve(TradeService.self)
        let second = try hive.resolve(TradeService.self)
        #expect(first === second)
        #expect(builds.current == 1)
    }

    @Test("a weak instance is shared while held, never kept alive by the hive, and rebuilt after release")
    func weakScope() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Session.self, scope: .weak) {
            builds.increment()
            return LiveSession()
        }

        var held: (any Session)? = try hive.resolve(Session.self)
        weak let observed = held
        #expect(try hive.resolve(Session.self) === held)
        #expect(builds.current == 1)

        held = nil
        #expect(observed == nil, "the hive holds a weak instance weakly")
        let rebuilt = try hive.resolve(Session.self)
        #expect(builds.current == 2)
        withExtendedLifetime(rebuilt) {}
    }

    @Test(".weak on a value type fails with weakRequiresClass, caches nothing, and fails again")
    func weakValueType() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Settings.self, scope: .weak) {
            builds.increment()
            return DefaultSettings()
        }
        for _ in 0..<2 {
            do {
                _ = try hive.resolve(Settings.self)
                Issue.record("expected weakRequiresClass")
            } catch let error as ServiceHiveError {
                guard case .weakRequiresClass(_, let instanceType) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(instanceType == "DefaultSettings")
            }
        }
        #expect(builds.current == 2)
    }

    @Test("a graph-scoped service is shared within one top-level resolve and fresh in the next")
    func graphScope() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { r in LiveReport(header: try r.resolve(), footer: try r.resolve()) }

        let first = try hive.resolve(Report.self)
        let second = try hive.resolve(Report.self)
        #expect(first.header === first.footer)
        #expect(first.header !== second.header)
        #expect(try hive.resolve(Clock.self) !== (try hive.resolve(Clock.self)))
    }

    @Test("a factory that resolves through the hive directly, not its resolver, shares the graph too")
    func graphScopeThroughDirectResolve() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.register(Report.self) { [unowned hive] in
            LiveReport(header: try hive.resolve(), footer: try hive.resolve())
        }

        let report = try hive.resolve(Report.self)
        #expect(report.header === report.footer)
    }

    @Test("resetInstances drops singletons and weak instances and keeps the registrations")
    func resetInstances() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
        let before = try hive.resolve(TradeService.self)
        weak let observed = before

        hive.resetInstances()
        let after = try hive.resolve(TradeService.self)
        #expect(before !== after)
        withExtendedLifetime(after) {}
        _ = consume before
        #expect(observed == nil, "the old singleton is released")
    }

    // MARK: - Graph across hives

    @Test("a parent's singleton built during a child's resolve shares that object graph's graph instances")
    func parentSingletonSharesTheGraph() throws {
        let parent = ServiceHive()
        try parent.register(Clock.self, scope: .graph) { SystemClock() }
        try parent.register(Cart.self, scope: .singleton) { r in
            _ = try r.resolve(Clock.self)
            return LiveCart(trade: LiveTradeService())
        }
        try parent.register(LiveReport.self, scope: .singleton) { r in
            LiveReport(header: try r.resolve(Clock.self), footer: try r.resolve(Clock.self))
        }
        let child = ServiceHive(parent: parent)
        try child.register(Report.self) { r in
            let shared = try r.resolve(LiveReport.self)  // a parent singleton, built here with the parent's view
            return LiveReport(header: shared.header, footer: try r.resolve(Clock.self))
        }
        let report = try child.resolve(Report.self)
        #expect(report.header === report.footer, "one object graph holds one clock")
        let next = try child.resolve(Report.self)
        #expect(next.header === report.header, "the singleton keeps the clock of the graph that built it")
        #expect(next.footer !== report.footer, "the next top-level resolve is a new graph")
    }

    @Test("a child's graph instance is not handed to a parent's singleton, which builds its own")
    func childGraphInstanceStaysInTheChild() throws {
        let parent = ServiceHive()
        try parent.register(Clock.self, scope: .graph) { SystemClock() }
        try parent.register(LiveReport.self, scope: .singleton) { r in
            LiveReport(header: try r.resolve(Clock.self), footer: try r.resolve(Clock.self))
        }
        let child = ServiceHive(parent: parent)
        try child.register(Report.self) { r in
            let clock = try r.resolve(Clock.self)  // built in the child's view first
            let shared = try r.resolve(LiveReport.self)
            return LiveReport(header: clock, footer: shared.header)
        }
        let report = try child.resolve(Report.self)
        #expect(report.header !== report.footer)
        let shared = try parent.resolve(LiveReport.self)
        #expect(shared.header === shared.footer, "within the parent's view the graph is still one clock")
    }

    // MARK: - Named scopes

    @Test("a named scope is shared like a singleton until its instances are reset by scope")
    func namedScope() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Session.self, scope: .session) {
            builds.increment()
            return LiveSession()
        }
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        let first = try hive.resolve(Session.self)
        let clock = try hive.resolve(Clock.self)
        #expect(try hive.resolve(Session.self) === first)
        hive.resetInstances(in: .session)
        let second = try hive.resolve(Session.self)
        #expect(second !== first)
        #expect(try hive.resolve(Clock.self) === clock, "other scopes keep their instances")
        #expect(builds.current == 2)
        #expect(ServiceHive.Scope.session.description == "session")
        #expect(hive.registrations.map(\.scope) == [.session, .singleton])
    }

    @Test("a reset by scope drops every instance built from a dropped one, and nothing else")
    func resetCascadesToDependents() throws {
        let hive = ServiceHive()
        try hive.register(Session.self, scope: .session) { LiveSession() }
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        try hive.register(LiveCart.self, scope: .singleton) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        let child = ServiceHive(parent: hive)
        try child.register(Cart.self, scope: .singleton) { r in try r.resolve(LiveCart.self) }
        let cart = try hive.resolve(LiveCart.self)
        let childCart = try child.resolve(Cart.self)
        let clock = try hive.resolve(Clock.self)

        hive.resetInstances(in: .session)
        #expect(try hive.resolve(LiveCart.self) !== cart, "built from the session, so dropped with it")
        #expect((try child.resolve(Cart.self)) as AnyObject !== childCart as AnyObject, "a child's too")
        #expect(try hive.resolve(Clock.self) === clock, "built from nothing reset")
    }

    @Test("a reset of one type drops it and what was built from it, and a parent keeps its instances")
    func resetOfOneType() throws {
        let parent = ServiceHive()
        try parent.register(Clock.self, scope: .singleton) { SystemClock() }
        let child = ServiceHive(parent: parent)
        try child.register(Session.self, scope: .singleton) { LiveSession() }
        try child.register(LiveCart.self, scope: .singleton) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        let clock = try child.resolve(Clock.self)
        let session = try child.resolve(Session.self)
        let cart = try child.resolve(LiveCart.self)
        child.resetInstances(of: Session.self)
        #expect(try child.resolve(Session.self) !== session)
        #expect(try child.resolve(LiveCart.self) !== cart)
        child.resetInstances()
        #expect(try child.resolve(Clock.self) === clock, "resets don't reach parents")
    }

    @Test("a reset while another thread builds the instance lets that build finish for its caller, uncached")
    func resetDuringConstruction() async throws {
        let hive = ServiceHive()
        let (started, proceed) = (Gate(), Gate())
        let builds = Locked(0)
        try hive.register(Session.self, scope: .session) {
            if builds.increment() == 1 {
                started.open()
                guard proceed.wait() else { throw TimedOut(what: "the test to reset the scope", limit: waitLimit) }
            }
            return LiveSession()
        }
        async let built = onThreads(1, "the first build") { _ in try hive.resolve(Session.self) }
        try await started.opened("the first build to start")
        hive.resetInstances(in: .session)
        proceed.open()
        let first = try await built[0]
        #expect(try hive.resolve(Session.self) !== first, "the reset construction was not cached")
        #expect(builds.current == 2)
    }

    @Test("a singleton whose build used an instance that a reset then dropped is handed to its caller, uncached")
    func resetOfADependencyDuringConstruction() async throws {
        let hive = ServiceHive()
        let (started, proceed) = (Gate(), Gate())
        let builds = Locked(0)
        try hive.register(Session.self, scope: .session) { LiveSession() }
        try hive.register(SessionCart.self, scope: .singleton) { r in
            let session = try r.resolve(Session.self)
            if builds.increment() == 1 {
                started.open()
                guard proceed.wait() else { throw TimedOut(what: "the test to reset the scope", limit: waitLimit) }
            }
            return SessionCart(session: session)
        }
        let oldSession = try hive.resolve(Session.self)
        async let built = onThreads(1, "the first build") { _ in try hive.resolve(SessionCart.self) }
        try await started.opened("the first build to start")
        hive.resetInstances(in: .session)  // while the cart is being built from the old session
        proceed.open()
        #expect(try await built[0].session === oldSession, "the caller got what it built")
        let cart = try hive.resolve(SessionCart.self)
        #expect(cart.session !== oldSession, "and it was not cached: the next resolve builds from the new session")
        #expect(cart.session === (try hive.resolve(Session.self)))
        #expect(builds.current == 2)
    }

    @Test("resets of a scope racing resolves from 4 threads never cache an instance built from a dropped one")
    func resetsRacingResolves() async throws {
        for round in 0..<10 {
            let hive = ServiceHive()
            try hive.register(Session.self, scope: .session) { LiveSession() }
            try hive.register(SessionCart.self, scope: .singleton) { r in SessionCart(session: try r.resolve()) }
            // A resolve that throws fails the test; the resetting thread counts the stale carts it saw.
            let stale = try await onThreads(4, "round \(round)") { thread in
                var stale = 0
                for _ in 0..<300 {
                    guard thread == 0 else {
                        _ = try hive.resolve(SessionCart.self)
                        continue
                    }
                    // Only this thread resets, so after its reset the cached cart must be built from the new session.
                    hive.resetInstances(in: .session)
                    let cart = try hive.resolve(SessionCart.self)
                    if cart.session !== (try hive.resolve(Session.self)) { stale += 1 }
                }
                return stale
            }
            #expect(stale == [0, 0, 0, 0], "round \(round)")
            // Once nothing races, the cached cart is built from the cached session: nothing stale was kept.
            let cart = try hive.resolve(SessionCart.self)
            #expect(cart.session === (try hive.resolve(Session.self)), "round \(round)")
            hive.resetInstances(in: .session)
            #expect(try hive.resolve(SessionCart.self) !== cart, "the reset reached the cart built from the session")
        }
    }
}

/// A singleton built from the session, so a reset of the session drops it too.
final class SessionCart: Sendable {
    let session: any Session
    init(session: any Session) { self.session = session }
}

extension ServiceHive.Scope {
    /// A named scope for the tests: what a signed-in session owns.
    static let session = Self.named("session")
}
