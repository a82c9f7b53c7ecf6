import ServiceHive
import Support
import Testing

@Suite("Override scopes", .timeLimit(.minutes(5)))
struct OverrideTests {
    @Test("inside the operation a resolve returns the override; outside, the registration")
    func basic() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect(trade.label == "mock")
        }
        #expect(try hive.resolve(TradeService.self).label == "live")
    }

    @Test("the async form sees the override across suspension points")
    func asyncForm() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        let label = try await hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            await Task.yield()
            let trade = try hive.resolve(TradeService.self)
            return trade.label
        }
        #expect(label == "mock")
        #expect(try hive.resolve(TradeService.self).label == "live")
    }

    @Test("named, resolver, argument and instance forms can all be overridden")
    func everyForm() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        let instance = MockTradeService(label: "instance")

        try hive.withOverrides {
            $0.register(TradeService.self, name: "premium") { r in
                MockTradeService(label: "premium mock, flags \(try r.resolve(FeatureFlags.self).isEnabled)")
            }
            $0.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: "mock \(name)")
            }
            $0.register(TradeService.self, instance: instance)
            $0.register(FeatureFlags.self, instance: FixedFlags(isEnabled: true))
        } operation: {
            let premium = try hive.resolve(TradeService.self, name: "premium")
            #expect(premium.label == "premium mock, flags true")
            let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
            #expect(greeter.greeting == "Hello, mock Mimi!")
            let trade = try hive.resolve(TradeService.self)
            #expect(trade === instance)
        }
    }

    @Test("an override can stand in for a protocol that was never registered, and isRegistered sees it")
    func unregisteredProtocol() throws {
        let hive = ServiceHive()
        #expect(!hive.isRegistered(FeatureFlags.self))
        try hive.withOverrides {
            $0.register(FeatureFlags.self) { FixedFlags(isEnabled: true) }
        } operation: {
            let flags = try hive.resolve(FeatureFlags.self)
            #expect(flags.isEnabled)
            #expect(hive.isRegistered(FeatureFlags.self))
        }
        #expect(!hive.isRegistered(FeatureFlags.self))
        #expect(throws: ServiceHiveError.self) { try hive.resolve(FeatureFlags.self) }
    }

    @Test("a service that is not overridden gets the override as its dependency")
    func overrideSeenAsDependency() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let cart = try hive.resolve(Cart.self)
            #expect(cart.trade.label == "mock")
        }
    }

    @Test("inner scopes win, and the outer scope's overrides come back when the inner one ends")
    func nesting() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "outer") }
        } operation: {
            #expect(try hive.resolve(TradeService.self).label == "outer")
            try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService(label: "inner") }
            } operation: {
                let trade = try hive.resolve(TradeService.self)
                #expect(trade.label == "inner")
            }
            #expect(try hive.resolve(TradeService.self).label == "outer")
        }
        #expect(try hive.resolve(TradeService.self).label == "live")
    }

    @Test("an override of one hive leaves another hive untouched")
    func perHive() throws {
        let first = ServiceHive()
        let second = ServiceHive()
        try first.register(TradeService.self) { LiveTradeService(label: "first") }
        try second.register(TradeService.self) { LiveTradeService(label: "second") }

        try first.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let overridden = try first.resolve(TradeService.self)
            let untouched = try second.resolve(TradeService.self)
            #expect(overridden.label == "mock")
            #expect(untouched.label == "second")
        }
    }

    @Test("a child that falls back to its parent sees the parent's overrides; its own registrations still win")
    func childSeesParentOverrides() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService() }
        try parent.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try child.register(TradeService.self, name: "local") { LiveTradeService(label: "child") }

        try parent.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
            $0.register(TradeService.self, name: "local") { MockTradeService(label: "parent override") }
        } operation: {
            let trade = try child.resolve(TradeService.self)
            let cart = try child.resolve(Cart.self)
            let local = try child.resolve(TradeService.self, name: "local")
            #expect(trade.label == "mock")
            #expect(cart.trade.label == "mock")
            #expect(local.label == "child")
        }
        // A scope on the child does not reach the parent.
        try child.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "child mock") }
        } operation: {
            let fromChild = try child.resolve(TradeService.self)
            let fromParent = try parent.resolve(TradeService.self)
            #expect(fromChild.label == "child mock")
            #expect(fromParent.label == "live")
        }
    }

    @Test("child tasks see the override: async let, task groups and Task {}; Task.detached does not")
    func childTasks() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        let (fromAsyncLet, fromGroup, fromTask, fromDetached) = try await within("the child tasks") {
            try await hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                async let fromAsyncLet = hive.resolve(TradeService.self).label
                let fromGroup = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<4 { group.addTask { try hive.resolve(TradeService.self).label } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let fromTask = try await Task { try hive.resolve(TradeService.self).label }.value
                let fromDetached = try await Task.detached { try hive.resolve(TradeService.self).label }.value
                return (try await fromAsyncLet, fromGroup, fromTask, fromDetached)
            }
        }
        #expect(fromAsyncLet == "mock")
        #expect(fromGroup == Array(repeating: "mock", count: 4))
        #expect(fromTask == "mock")
        #expect(fromDetached == "live")
    }

    @Test("an unstructured task started inside keeps the scope, and its instances, until it ends")
    func unstructuredTaskKeepsTheScope() async throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        let (proceed, signal) = AsyncStream.makeStream(of: Void.self)

        let late = hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            Task {
                for await _ in proceed { break }
                return try hive.resolve(TradeService.self).label
            }
        }
        #expect(try hive.resolve(TradeService.self).label == "live", "the operation has returned")
        signal.yield()
        #expect(try await within("the task started inside") { try await value(of: late) } == "mock")
    }

    // MARK: - No leaks

    @Test("a singleton built inside a scope never escapes it")
    func singletonBuiltInsideStaysInside() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }

        weak var insideCart: LiveCart?
        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let cart = try hive.resolve(Cart.self)
            #expect(cart.trade.label == "mock")
            #expect(cart as AnyObject === (try hive.resolve(Cart.self)) as AnyObject, "shared within the scope")
            insideCart = cart as? LiveCart
        }
        #expect(insideCart == nil, "released when the scope ended")
        #expect(try hive.resolve(Cart.self).trade.label == "live", "the singleton outside is built without it")
    }

    @Test("a singleton built before the scope is rebuilt inside it with the overridden dependency")
    func singletonBuiltBeforeIsRebuiltInside() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
        let before = try hive.resolve(Cart.self)
        #expect(before.trade.label == "live")

        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let inside = try hive.resolve(Cart.self)
            #expect(inside.trade.label == "mock")
            #expect(inside as AnyObject !== before as AnyObject)
        }
        #expect(try hive.resolve(Cart.self) as AnyObject === before as AnyObject, "the original is untouched")
    }

    @Test("a weak instance built from an override never escapes, and one built from nothing overridden is shared")
    func weakInstancesFollowTheRule() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(Session.self, scope: .weak) { LiveSession() }
        try hive.register(LiveCart.self, scope: .weak) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(TradeService.self) { r in
            _ = try r.resolve(Clock.self); return LiveTradeService()
        }
        let outsideSession = try hive.resolve(Session.self)
        let outsideCart = try hive.resolve(LiveCart.self)

        try hive.withOverrides {
            $0.register(Clock.self) { SystemClock() }
        } operation: {
            #expect(try hive.resolve(Session.self) === outsideSession, "built from nothing overridden")
            let inside = try hive.resolve(LiveCart.self)
            #expect(inside !== outsideCart, "built from the overridden clock, through TradeService")
            #expect(try hive.resolve(LiveCart.self) === inside)
        }
        #expect(try hive.resolve(LiveCart.self) === outsideCart)
        #expect(try hive.resolve(Session.self) === outsideSession)
    }

    @Test("a singleton override lives for its scope only, and a new scope builds a new one")
    func singletonOverride() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        let configure: (inout ServiceHive.Overrides) -> Void = {
            $0.register(TradeService.self, scope: .singleton) {
                builds.increment()
                return MockTradeService()
            }
        }
        for _ in 0..<2 {
            try hive.withOverrides(configure) {
                let first = try hive.resolve(TradeService.self)
                #expect(first === (try hive.resolve(TradeService.self)))
            }
        }
        #expect(builds.current == 2)
    }

    @Test("a singleton built from an override is built once even when child tasks race for it")
    func singletonInScopeExactlyOnce() async throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(Clock.self) { SystemClock() }
        try hive.register(TradeService.self, scope: .singleton) { r in
            _ = try r.resolve(Clock.self)
            builds.increment()
            pause(milliseconds: 2)
            return LiveTradeService()
        }
        let outside = try hive.resolve(TradeService.self)
        // The child tasks block while one of them builds: each runs on a thread of its own, not the cooperative pool,
        // and inherits the override scope as any child task does.
        let identities = try await hive.withOverrides {
            $0.register(Clock.self) { SystemClock() }
        } operation: {
            try await inTasksOnThreads(8, "the racing child tasks") { _ in
                ObjectIdentifier(try hive.resolve(TradeService.self))
            }
        }
        #expect(identities.count == 8)
        #expect(Set(identities).count == 1)
        #expect(!identities.contains(ObjectIdentifier(outside)))
        #expect(builds.current == 2, "once outside, once for the overrides")
    }

    @Test("registrations made during a scope are seen in it, and unregistering in it is too")
    func registryChangesDuringScope() throws {
        let hive = ServiceHive()
        try hive.withOverrides { _ in
        } operation: {
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService(label: "one") }
            #expect(try hive.resolve(TradeService.self).label == "one")
            #expect(try hive.resolve(TradeService.self).label == "one")
            hive.unregister(TradeService.self)
            #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }
            try hive.register(TradeService.self) { LiveTradeService(label: "two") }
            #expect(try hive.resolve(TradeService.self).label == "two")
        }
    }

    // MARK: - Parallel

    @Test("a hundred concurrent scopes on the shared hive each see only their own override, every time")
    func hundredParallelScopes() async throws {
        let mismatches = try await within("a hundred scopes") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await ServiceHive.shared.withOverrides {
                            $0.register(FeatureFlags.self, name: "parallel") {
                                FixedFlags(isEnabled: index.isMultiple(of: 2))
                            }
                            $0.register(TradeService.self, name: "parallel") { MockTradeService(label: "\(index)") }
                        } operation: {
                            var mismatches = 0
                            for _ in 0..<50 {
                                let trade = try ServiceHive.shared.resolve(TradeService.self, name: "parallel")
                                let flags = try ServiceHive.shared.resolve(FeatureFlags.self, name: "parallel")
                                if trade.label != "\(index)" || flags.isEnabled != index.isMultiple(of: 2) {
                                    mismatches += 1
                                }
                                await Task.yield()
                            }
                            return mismatches
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(mismatches == 0)
        #expect(!ServiceHive.shared.isRegistered(TradeService.self, name: "parallel"))
    }

    // MARK: - Reset

    @Test("resetInstances keeps registrations and rebuilds singletons on the next resolve")
    func resetBetweenSequentialTests() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        _ = try hive.resolve(TradeService.self)
        hive.resetInstances()
        _ = try hive.resolve(TradeService.self)
        _ = try hive.resolve(TradeService.self)
        #expect(builds.current == 2)
        #expect(hive.isRegistered(TradeService.self))
    }
}
