import ServiceHive
import Testing

@Suite("Child hives")
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
}
