import ServiceHive
import Support
import Testing

/// What `child(_:)` was given is kept on the child, not registered, until something other than a resolve reads its
/// registrations. These tests hold the child to what a registration of each instance would do.
@Suite("What a child was given", .timeLimit(.minutes(5)))
struct ChildProvisionTests {
    @Test("a child's instance shadows the root's registration, even after this thread resolved the root's")
    func shadowsAnAnswerKept() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self, scope: .singleton) { LiveTradeService(label: "parent") }
        // Twice, so that this thread keeps the root's answer, which a resolve from a child could otherwise take.
        for _ in 0..<2 { #expect(try parent.resolve(TradeService.self).label == "parent") }
        for round in 0..<3 {
            let request = parent.child { $0.provide(TradeService.self, LiveTradeService(label: "request \(round)")) }
            for _ in 0..<2 { #expect(try request.resolve(TradeService.self).label == "request \(round)") }
            #expect(try parent.resolve(TradeService.self).label == "parent")
        }
    }

    @Test("each of more instances than a request has shadows what this thread resolved in the root, in order given")
    func shadowsManyAnswersKept() throws {
        let parent = ServiceHive()
        let names: [String?] = [nil, "a", "b", "c"]
        for name in names {
            try parent.register(TradeService.self, name: name, scope: .singleton) { LiveTradeService(label: "parent") }
        }
        try parent.register(Session.self, scope: .singleton) { LiveSession() }
        try parent.register(Clock.self, scope: .singleton) { SystemClock() }
        // Twice each, so that this thread keeps the root's answers, which a resolve from the child could otherwise take.
        let (rootSession, rootClock) = (try parent.resolve(Session.self), try parent.resolve(Clock.self))
        for _ in 0..<2 {
            for name in names { #expect(try parent.resolve(TradeService.self, name: name).label == "parent") }
            #expect(try parent.resolve(Session.self) === rootSession)
            #expect(try parent.resolve(Clock.self) === rootClock)
        }
        let (session, clock) = (LiveSession(), SystemClock())
        let request = parent.child {
            for name in names {
                $0.provide(TradeService.self, name: name, LiveTradeService(label: "request \(name ?? "plain")"))
            }
            $0.provide(Session.self, session)
            $0.provide(Clock.self, clock)
        }
        for name in names {
            #expect(try request.resolve(TradeService.self, name: name).label == "request \(name ?? "plain")")
        }
        #expect(try request.resolve(Session.self) === session)
        #expect(try request.resolve(Clock.self) === clock)
        #expect(try parent.resolve(Session.self) === rootSession)
        #expect(try parent.resolve(Clock.self) === rootClock)
        // Six, listed in the order given.
        let expected =
            names.map { ServiceHive.ServiceKey(TradeService.self, name: $0) } + [
                ServiceHive.ServiceKey(Session.self), ServiceHive.ServiceKey(Clock.self),
            ]
        #expect(request.registrations.map(\.key) == expected)
    }

    @Test("registering in a child after it was given instances follows the rules for registrations")
    func registeringAfterwards() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        let session = LiveSession()
        let request = parent.child {
            $0.provide(TradeService.self, LiveTradeService(label: "given"))
            $0.provide(Session.self, session)
        }
        #expect(try request.resolve(TradeService.self).label == "given")
        let duplicate = error { try request.register(TradeService.self) { LiveTradeService(label: "again") } }
        guard case .alreadyRegistered? = duplicate else {
            Issue.record("expected alreadyRegistered, got \(String(describing: duplicate))")
            return
        }
        #expect(request.unregister(TradeService.self))
        #expect(try request.resolve(TradeService.self).label == "parent")
        try request.register(TradeService.self) { LiveTradeService(label: "registered") }
        #expect(try request.resolve(TradeService.self).label == "registered")
        #expect(try request.resolve(Session.self) === session)
        #expect(request.registrations.map(\.key.service) == ["Session", "TradeService"])
    }

    @Test("an override of what a child was given answers resolves from it, and the instance given returns after")
    func overridden() throws {
        let given = LiveSession()
        let request = ServiceHive().child { $0.provide(Session.self, given) }
        let mock = LiveSession()
        let inside = try request.withOverrides({ $0.register(Session.self, instance: mock) }) {
            try request.resolve(Session.self)
        }
        #expect(inside === mock)
        #expect(try request.resolve(Session.self) === given)
    }

    @Test("under an override of the parent, a child still resolves what it was given, as a registration would")
    func parentOverridden() async throws {
        let parent = ServiceHive()
        try parent.register(Session.self) { LiveSession() }
        let given = LiveSession()
        let request = parent.child { $0.provide(Session.self, given) }
        // The parent's override is searched after the child's own instances, whose task now has override layers.
        let (sync, async) = try await parent.withOverrides({ $0.register(Session.self) { LiveSession() } }) {
            (try request.resolve(Session.self), try await request.resolveAsync(Session.self))
        }
        #expect(sync === given)
        #expect(async === given)
        #expect(try parent.resolve(Session.self) !== given)
    }

    @Test("an async resolve from a child returns what it was given, and its override inside the override")
    func resolvedAsync() async throws {
        let given = LiveSession()
        let request = ServiceHive().child { $0.provide(Session.self, given) }
        #expect(try await request.resolveAsync(Session.self) === given)
        let mock = LiveSession()
        let inside = try await request.withOverrides({ $0.register(Session.self, instance: mock) }) {
            try await request.resolveAsync(Session.self)
        }
        #expect(inside === mock)
        #expect(try await request.resolveAsync(Session.self) === given)
    }

    @Test("a trace of a resolve from a child shows the instance it was given")
    func traced() throws {
        let parent = ServiceHive()
        try parent.register(Cart.self) { r in
            _ = try r.resolve(Session.self)
            return LiveCart(trade: LiveTradeService())
        }
        let request = parent.child { $0.provide(Session.self, LiveSession()) }
        let traces = Locked<[String]>([])
        parent.trace = { trace in traces.withLock { $0.append("\(trace)") } }
        _ = try request.resolve(Cart.self)
        parent.trace = nil
        let lines = traces.withLock { $0 }.map { $0.split(separator: "\n").map(String.init) }
        #expect(lines.count == 1)
        #expect(lines.first?.first?.hasPrefix("Cart (transient) built in") == true, "\(lines)")
        #expect(lines.first?.dropFirst() == ["└─ Session (singleton) cached"], "\(lines)")
    }

    @Test("a resolver of a child released throws hiveReleased for what the child was given")
    func releasedChild() throws {
        var request: ServiceHive? = ServiceHive().child { $0.provide(Session.self, LiveSession()) }
        let resolver = request!.resolver
        #expect(try resolver.resolve(Session.self) is LiveSession)
        request = nil
        let released = error { _ = try resolver.resolve(Session.self) }
        guard case .hiveReleased? = released else {
            Issue.record("expected hiveReleased, got \(String(describing: released))")
            return
        }
    }

    @Test("an instance given to a child that keeps the child's resolver is released with the child")
    func noCycleThroughTheResolver() throws {
        weak var released: KeepsResolver?
        do {
            let given = KeepsResolver()
            released = given
            let request = ServiceHive().child { $0.provide(Session.self, given) }
            given.resolver = request.resolver
            #expect(try request.resolve(Session.self) === given)
        }
        #expect(released == nil)
    }

    @Test("what a child was given without knowing it is Sendable is refused as Sendable, as its registration is")
    func sendability() throws {
        let request = ServiceHive().child {
            $0.provide((any Notepad).self, PlainNotepad())
            $0.provide((any Notepad & Sendable).self, name: "frozen", FrozenNotepad(["a"]))
        }
        let refused = error { _ = try request.resolve((any Notepad & Sendable).self) }
        guard case .notSendable? = refused else {
            Issue.record("expected notSendable, got \(String(describing: refused))")
            return
        }
        #expect(try request.resolve((any Notepad & Sendable).self, name: "frozen").lines == ["a"])
        #expect(try request.resolve((any Notepad).self) is PlainNotepad)
    }

    @Test("a miss in a child names what it was given under another name")
    func missNamesTheGiven() throws {
        let request = ServiceHive().child { $0.provide(Session.self, name: "guest", LiveSession()) }
        let missed = error { _ = try request.resolve(Session.self) }
        guard case .notRegistered? = missed else {
            Issue.record("expected notRegistered, got \(String(describing: missed))")
            return
        }
        #expect("\(missed!)".contains("guest"), "\(missed!)")
    }

    @Test("threads resolving what a child was given see it while another reads and changes the child's registrations")
    func resolvesWhileRegistrationsChange() async throws {
        for _ in 0..<20 {
            let parent = ServiceHive()
            try parent.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            let trade = LiveTradeService(label: "given")
            let session = LiveSession()
            let request = parent.child {
                $0.provide(TradeService.self, trade)
                $0.provide(Session.self, session)
            }
            // Thread 0 lists the registrations, which moves what was given into them, then registers and unregisters
            // another service; the others resolve what was given, and build from it, meanwhile.
            let wrong = try await onThreads(4) { thread in
                var wrong = 0
                for round in 0..<2_000 {
                    if thread == 0 {
                        if round == 100 { wrong += request.registrations.count == 2 ? 0 : 1 }
                        if round > 100, round % 10 == 0 {
                            try request.register(Greeter.self) { LiveGreeter(name: "thread 0") }
                            if !request.unregister(Greeter.self) { wrong += 1 }
                        }
                    }
                    if try request.resolve(Session.self) !== session { wrong += 1 }
                    if try request.resolve(Cart.self).trade as? LiveTradeService !== trade { wrong += 1 }
                }
                return wrong
            }
            #expect(wrong == [0, 0, 0, 0])
        }
    }
}

/// A session that keeps a resolver, as an instance given to a child may keep the child's.
private final class KeepsResolver: Session, @unchecked Sendable {
    // Unchecked: the test that makes one sets `resolver` once, on its own thread, before any resolve reads the session.
    var resolver: ServiceHive.Resolver?
}
