import ServiceHive
import Support
import Testing

@Suite("Child hives", .timeLimit(.minutes(5)))
struct ChildHiveTests {
    @Test("a child looks locally first, then in its parent")
    func fallsBackToParent() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }

        #expect(try child.resolve(TradeService.self).label == "parent")
        #expect(child.parent === parent)
    }

    @Test("a child's registration shadows the parent's, and the parent never sees the child's")
    func shadowing() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        try child.register(TradeService.self) { LiveTradeService(label: "child") }
        try child.register(Session.self) { LiveSession() }

        #expect(try child.resolve(TradeService.self).label == "child")
        #expect(try parent.resolve(TradeService.self).label == "parent")
        #expect(!parent.isRegistered(Session.self))
        #expect(throws: ServiceHiveError.self) { try parent.resolve(Session.self) }
    }

    @Test("a parent's singleton is shared with its children")
    func parentSingletonShared() throws {
        let parent = ServiceHive()
        let first = ServiceHive(parent: parent)
        let second = ServiceHive(parent: parent)
        try parent.register(TradeService.self, scope: .singleton) { LiveTradeService() }

        let fromFirst = try first.resolve(TradeService.self)
        #expect(fromFirst === (try second.resolve(TradeService.self)))
        #expect(fromFirst === (try parent.resolve(TradeService.self)))
    }

    @Test("a parent's singleton is built from the parent's registrations, never capturing a child's")
    func parentSingletonUsesParentView() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        try parent.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
        try child.register(TradeService.self) { LiveTradeService(label: "child") }

        #expect(try child.resolve(Cart.self).trade.label == "parent")
    }

    @Test("a parent's transient factory resolves its dependencies from the asking child")
    func parentTransientUsesChildView() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        try parent.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try child.register(TradeService.self) { LiveTradeService(label: "child") }

        #expect(try child.resolve(Cart.self).trade.label == "child")
        #expect(try parent.resolve(Cart.self).trade.label == "parent")
    }

    @Test("a child never keeps a transient instance alive")
    func childKeepsNoTransient() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService() }
        try child.register(Session.self) { LiveSession() }

        weak let fromParent = try child.resolve(TradeService.self)
        weak let fromChild = try child.resolve(Session.self)
        #expect(fromParent == nil)
        #expect(fromChild == nil)
    }

    @Test("releasing a child releases its singletons and keeps the parent working")
    func childRelease() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService() }
        var child: ServiceHive? = ServiceHive(parent: parent)
        try child?.register(Session.self, scope: .singleton) { LiveSession() }
        weak let session = try child?.resolve(Session.self)
        weak let observedChild = child

        child = nil
        #expect(observedChild == nil)
        #expect(session == nil)
        #expect(try parent.resolve(TradeService.self).label == "live")
    }

    @Test(
        "a child made with provisions resolves them, shadows the parent, and builds the parent's transients with them")
    func provisions() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        try parent.register(Cart.self) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: try r.resolve())
        }
        let session = LiveSession()
        let request = parent.child {
            $0.provide(Session.self, session)
            $0.provide(TradeService.self, LiveTradeService(label: "first"))
            $0.provide(TradeService.self, LiveTradeService(label: "request"))  // the last one provided wins
        }
        #expect(request.parent === parent)
        #expect(try request.resolve(Session.self) === session)
        #expect(try request.resolve(TradeService.self).label == "request")
        #expect(try request.resolve(Cart.self).trade.label == "request")
        #expect(try parent.resolve(TradeService.self).label == "parent")
        #expect(!parent.isRegistered(Session.self))
    }

    @Test("a parent's singleton never captures what a child provides, and a miss in the parent points at the child")
    func provisionsStayInTheChild() throws {
        let parent = ServiceHive()
        try parent.register(Cart.self, scope: .singleton) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        let request = parent.child { $0.provide(Session.self, LiveSession()) }
        let error = error { _ = try request.resolve(Cart.self) }
        guard case .notRegistered(let key, let chain)? = error else {
            Issue.record("expected notRegistered, got \(String(describing: error))")
            return
        }
        #expect(key.service == "Session")
        #expect(chain.map(\.service) == ["Cart"])
        #expect("\(error!)".contains("child hives provide it"))
    }

    @Test("a service provided twice under one name is the last one, listed once, where its other names are its own")
    func providedTwiceKeepsTheLast() throws {
        let (first, second, named) = (
            LiveTradeService(label: "first"), LiveTradeService(label: "second"), LiveTradeService(label: "named")
        )
        let request = ServiceHive().child {
            $0.provide(TradeService.self, first)
            $0.provide(TradeService.self, name: "other", named)
            $0.provide(TradeService.self, second)
        }
        #expect(try request.resolve(TradeService.self) as? LiveTradeService === second)
        #expect(try request.resolve(TradeService.self, name: "other") as? LiveTradeService === named)
        // Listed in the order kept: the replaced one's place went with it.
        #expect(request.registrations.map(\.key.name) == ["other", nil])
    }

    @Test("validating a child checks what it was given and what its parent builds from it")
    func validatingProvisions() throws {
        let parent = ServiceHive()
        try parent.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try parent.register(Session.self, instance: LiveSession())
        let request = parent.child { $0.provide(TradeService.self, LiveTradeService(label: "given")) }
        let report = request.validate()
        #expect(report.failures.isEmpty, "\(report)")
        #expect(Set(report.passed.map(\.key.service)).isSuperset(of: ["Cart", "Session", "TradeService"]))
    }

    @Test("children made concurrently with provisions each see only their own, and their instances go with them")
    func concurrentChildren() async throws {
        let parent = ServiceHive()
        try parent.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        // A resolve that throws fails the test; each thread counts the wrong carts, and the trades not released.
        let counts = try await onThreads(4) { thread in
            var (mismatches, kept) = (0, 0)
            for round in 0..<50 {
                let label = "\(thread)-\(round)"
                var weakTrade = WeakTrade(nil)
                do {
                    let request = parent.child { $0.provide(TradeService.self, LiveTradeService(label: label)) }
                    let cart = try request.resolve(Cart.self)
                    if cart.trade.label != label { mismatches += 1 }
                    weakTrade = WeakTrade(cart.trade as? LiveTradeService)
                    if weakTrade.object == nil { mismatches += 1 }  // not the child's LiveTradeService
                }
                if weakTrade.object != nil { kept += 1 }
            }
            return (mismatches: mismatches, kept: kept)
        }
        #expect(counts.map(\.mismatches) == [0, 0, 0, 0])
        #expect(counts.map(\.kept) == [0, 0, 0, 0], "each child's instances went with it")
    }
}

/// A weak reference to a trade service, to check that a child's instances are released with it.
private struct WeakTrade {
    weak var object: LiveTradeService?
    init(_ object: LiveTradeService?) { self.object = object }
}
