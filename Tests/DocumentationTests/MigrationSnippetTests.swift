import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// The ServiceHive code of the article "Migrating from Other Locators", compiled here against the article's types in
// MigrationArticleFixtures.swift. `DocumentationSnippetTests` checks that the article and these regions stay the same.
// Each test asserts what its snippet claims; the behaviour tests of ServiceHiveTests check the rest.

extension MigrationArticle {
    @Suite("Migration article snippets", .timeLimit(.minutes(5)))
    struct MigrationSnippetTests {
        // MARK: - The basics

        @Test(
            "Basics: registering, resolving, names, arguments, and an Optional that is nil when nothing is registered")
        func basics() throws {
            // snippet: migration-basics
            let hive = ServiceHive()
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
            try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            try hive.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

            let cart = try hive.resolve(Cart.self)
            let premium = try hive.resolve(TradeService.self, name: "premium")
            let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
            let clock: (any Clock)? = try hive.resolve()  // nil: Clock is not registered
            // end-snippet
            _ = (cart, premium, greeter)  // resolved; ResolutionTests checks what a resolver, a name and arguments give
            #expect(clock == nil)
        }

        @Test("Basics: a child made for one request provides its instances, and the parent's factories use them")
        func requestChild() throws {
            // snippet: migration-child
            let app = ServiceHive()
            try app.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

            let request = app.child { $0.provide(TradeService.self, LiveTradeService(label: "request 7")) }
            print(try request.resolve(Cart.self).trade.label)  // request 7
            // end-snippet
            #expect(try request.resolve(Cart.self).trade.label == "request 7")
        }

        @Test("Basics: an override scope rebuilds what uses an override, and shares everything else")
        func overridesInTests() throws {
            // snippet: migration-overrides
            let hive = ServiceHive()
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
            try hive.register(Clock.self, scope: .singleton) { SystemClock() }
            let clock = try hive.resolve(Clock.self)

            try hive.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                print(try hive.resolve(Cart.self).trade.label)  // mock: this Cart is built for the scope
                print(try hive.resolve(Clock.self) === clock)  // true: the clock uses nothing overridden
                #expect(try hive.resolve(Cart.self).trade.label == "mock")
                #expect(try hive.resolve(Clock.self) === clock)
            }
            // end-snippet
        }

        // MARK: - Capabilities

        @Test("Forwarding: one singleton resolves as its own type and as two protocols")
        func forwarding() throws {
            // snippet: migration-forward
            let hive = ServiceHive()
            try hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
            try hive.forward(Reader.self, to: LiveStore.self) { $0 }
            try hive.forward(Writer.self, to: LiveStore.self) { $0 }

            try hive.resolve(Writer.self).write("hello")
            print(try hive.resolve(Reader.self).read())  // hello: one LiveStore behind both
            // end-snippet
            #expect(try hive.resolve(Reader.self).read() == "hello")
            #expect(try hive.resolve(Reader.self) === hive.resolve(LiveStore.self))
        }

        @Test("Lazy and Provider: nothing resolves until first use; a Lazy keeps its instance, a Provider does not")
        func lazyAndProvider() throws {
            let builds = Locked(0)
            let hive = ServiceHive()
            try hive.register(Clock.self) {
                builds.increment()
                return SystemClock()
            }
            // snippet: migration-lazy
            try hive.register(Scheduler.self, scope: .singleton) { r in
                Scheduler(lazyClock: try r.resolve(), clocks: try r.resolve())
            }
            let scheduler = try hive.resolve(Scheduler.self)  // builds no Clock yet
            let kept = try scheduler.lazyClock.instance  // resolves Clock now, and keeps it
            let fresh = try scheduler.clocks.instance  // resolves Clock again on every read
            let direct = try hive.resolve(ServiceHive.Lazy<any Clock>.self)  // from the hive itself too
            // end-snippet
            #expect(try scheduler.lazyClock.instance === kept)
            #expect(try scheduler.clocks.instance !== fresh)
            #expect(builds.current == 3)
            #expect(try direct.instance !== kept, "a Lazy of its own resolves a transient of its own")
        }

        @Test("Post-construction hook: a parent and a child of one graph point at each other")
        func completedHook() throws {
            // snippet: migration-completed
            let hive = ServiceHive()
            try hive.register(Parent.self, scope: .graph) { _ in
                Parent()
            } completed: { r, parent in
                let child = try r.resolve(Child.self)  // Child's factory resolves this same Parent
                parent.child.withLock { $0 = child }
            }
            try hive.register(Child.self) { r in Child(parent: try r.resolve()) }

            let parent = try hive.resolve(Parent.self)
            print(parent.child.current?.parent === parent)  // true
            // end-snippet
            #expect(parent.child.current?.parent === parent)
        }

        @Test("Property wrappers: an eager and a lazy wrapper resolve from the shared hive, and a throwing accessor")
        func propertyWrappers() throws {
            try ServiceHive.shared.withOverrides {
                $0.register(TradeService.self) { LiveTradeService() }
                $0.register(Clock.self, scope: .singleton) { SystemClock() }
            } operation: {
                // snippet: migration-wrappers
                let screen = CheckoutScreen()  // resolves trade now
                print(screen.trade.label)  // live
                let clock = try screen.$clock.instance  // resolves clock on this first read, or throws
                // end-snippet
                #expect(screen.trade.label == "live")
                #expect(clock === (try ServiceHive.shared.resolve(Clock.self)))
            }
        }

        @Test("Async factories: an async factory resolves an async singleton with resolveAsync")
        func asyncFactories() async throws {
            // snippet: migration-async
            let hive = ServiceHive()
            try hive.register(Database.self, scope: .singleton) { _ async throws in try await LiveDatabase.connect() }
            try hive.register(Greeter.self) { r async throws in
                LiveGreeter(name: try await r.resolveAsync(Database.self).name)
            }

            let greeter = try await hive.resolveAsync(Greeter.self)  // Hello, live!
            // end-snippet
            #expect(greeter.greeting == "Hello, live!")
        }

        @Test("Trace: a top-level resolve is traced as a tree of the services it resolved, with their scopes")
        func trace() throws {
            let hive = ServiceHive()
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            // snippet: migration-trace
            hive.trace = { trace in print(trace) }
            hive.onResolutionFailure = { error in print("resolve failed: \(error)") }

            _ = try hive.resolve(Cart.self)
            // Cart (transient) built in 14 µs
            // └─ TradeService (singleton) built in 3 µs
            // end-snippet

            let traces = Locked<[String]>([])
            hive.trace = { trace in traces.withLock { $0.append("\(trace)") } }
            _ = try hive.resolve(Cart.self)
            let lines = traces.current.first?.split(separator: "\n").map(String.init) ?? []
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("Cart (transient) built in ") == true)
            #expect(lines.last == "└─ TradeService (singleton) cached")
        }

        @Test("Strict overrides: a service the test did not override fails with notOverridden")
        func strictOverrides() throws {
            let hive = ServiceHive()
            try hive.register(TradeService.self) { LiveTradeService() }
            try hive.register(Clock.self) { SystemClock() }
            // snippet: migration-strict
            try hive.withOverrides(strict: true) {
                $0.register(TradeService.self) { MockTradeService() }
            } operation: {
                let trade = try hive.resolve(TradeService.self)  // the mock
                #expect(throws: ServiceHiveError.self) { try hive.resolve(Clock.self) }  // notOverridden: forgotten
                #expect(trade.label == "mock")
                let thrown = #expect(throws: ServiceHiveError.self) { try hive.resolve(Clock.self) }
                guard case .notOverridden(let key, chain: [])? = thrown else {
                    Issue.record("expected notOverridden, got \(String(describing: thrown))")
                    return
                }
                #expect(key == ServiceHive.ServiceKey(Clock.self))
            }
            // end-snippet
        }

        @Test("Remove everything: removeAll empties one hive, and visibleRegistrations lists what a child can resolve")
        func removeAllAndVisibleRegistrations() throws {
            // snippet: migration-remove-all
            let app = ServiceHive()
            try app.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            let request = app.child { $0.provide(Session.self, LiveSession()) }
            try request.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

            print(request.visibleRegistrations.map(\.service))  // ["Session", "Cart", "TradeService"]
            #expect(request.visibleRegistrations.map(\.service) == ["Session", "Cart", "TradeService"])
            request.removeAll()
            print(request.visibleRegistrations.map(\.service))  // ["TradeService"]: the parent keeps its own
            // end-snippet
            #expect(request.visibleRegistrations.map(\.service) == ["TradeService"])
            #expect(app.registrations.map(\.service) == ["TradeService"])
        }

        @Test("Dependency graph: validation with samples builds everything, and draws who resolved whom")
        func dependencyGraph() throws {
            // snippet: migration-graph
            let app = ServiceHive()
            try app.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
            try app.register(Greeter.self) { (r: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

            let report = app.validate { plan in
                plan.provide(TradeService.self, LiveTradeService(label: "sample"))  // each request's child provides it
                plan.arguments(for: Greeter.self, "Mimi")
            }
            print(report.isValid)  // true
            print(report.graph.mermaid)  // flowchart LR … Cart --> TradeService; report.graph.dot for Graphviz
            // end-snippet
            #expect(report.isValid)
            #expect(report.graph.mermaid.hasPrefix("flowchart LR\n"))
            #expect(report.graph.mermaid.contains("    Cart --> TradeService"))
            #expect(report.graph.dot.contains("    \"Cart\" -> \"TradeService\";"))
        }

        // MARK: - Differences that bite

        @Test("Default scope: a registration without a scope builds a new instance on every resolve")
        func defaultScope() throws {
            // snippet: migration-default-scope
            let hive = ServiceHive()
            try hive.register(Clock.self) { SystemClock() }  // no scope: .transient
            print(try hive.resolve(Clock.self) === hive.resolve(Clock.self))  // false: a new clock each time
            // end-snippet
            #expect(try hive.resolve(Clock.self) !== hive.resolve(Clock.self))
            #expect(hive.registrations.first?.scope == .transient)
        }

        @Test("Duplicates: a second registration of a key throws alreadyRegistered; unregister first to replace one")
        func duplicates() throws {
            let hive = ServiceHive()
            var caught: ServiceHive.ServiceKey?
            // snippet: migration-duplicate
            try hive.register(TradeService.self) { LiveTradeService() }
            do {
                try hive.register(TradeService.self) { PremiumTradeService() }
            } catch ServiceHiveError.alreadyRegistered(let key, let existing, _) {
                print("\(key) is already registered at \(existing)")  // the first registration stays
                caught = key
            }
            hive.unregister(TradeService.self)
            try hive.register(TradeService.self) { PremiumTradeService() }  // replaced
            // end-snippet
            #expect(caught == ServiceHive.ServiceKey(TradeService.self))
            #expect(try hive.resolve(TradeService.self).label == "premium")
        }

        @Test("Arguments: a registration with runtime arguments builds a new instance on every resolve")
        func argumentsAreTransient() throws {
            // snippet: migration-arguments
            let hive = ServiceHive()
            try hive.register(TradeService.self) { (r: ServiceHive.Resolver, label: String) in
                LiveTradeService(label: label)
            }
            let first = try hive.resolve(TradeService.self, arguments: "gold")
            let second = try hive.resolve(TradeService.self, arguments: "gold")
            print(first === second)  // false: built again for each resolve
            // end-snippet
            #expect(first !== second)
        }

        @Test(
            "Resets: a child's reset keeps its parent's instances; a parent's reset drops what children built from them"
        )
        func resetsDoNotCascadeToParents() throws {
            // snippet: migration-reset
            let app = ServiceHive()
            try app.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            let feature = ServiceHive(parent: app)
            try feature.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve()) }
            let trade = try feature.resolve(TradeService.self)
            let cart = try feature.resolve(Cart.self)

            feature.resetInstances()  // drops the feature's Cart; the app's TradeService stays
            #expect(try app.resolve(TradeService.self) === trade)
            let rebuilt = try feature.resolve(Cart.self)
            #expect(identity(of: rebuilt) != identity(of: cart))
            app.resetInstances(of: TradeService.self)  // drops TradeService, and every Cart built from it
            // end-snippet
            #expect(try app.resolve(TradeService.self) !== trade)
            let third = try feature.resolve(Cart.self)
            #expect(
                identity(of: third) != identity(of: rebuilt), "the feature's Cart was built from the dropped service")
        }

        @Test(
            "Wrapper timing: an eager wrapper sees the overrides where it is made; a lazy one, where it is first read"
        )
        func wrapperTiming() throws {
            // snippet: migration-wrapper-timing
            let screen = ServiceHive.shared.withOverrides {
                $0.register(TradeService.self) { MockTradeService() }
                $0.register(Clock.self) { SystemClock() }
            } operation: {
                CheckoutScreen()  // trade resolves here, inside the scope; clock does not
            }
            print(screen.trade.label)  // mock, for the screen's whole life
            print((try? screen.$clock.instance) == nil)  // true: read outside the scope, where Clock is not registered
            // end-snippet
            #expect(screen.trade.label == "mock")
            let late = #expect(throws: ServiceHiveError.self) { _ = try screen.$clock.instance }
            guard case .notRegistered(let key, chain: [])? = late else {
                Issue.record("expected notRegistered, got \(String(describing: late))")
                return
            }
            #expect(key == ServiceHive.ServiceKey(Clock.self))
        }

        @Test(
            "Sendable: resolving any P & Sendable refuses a registration of any P; one of any P & Sendable serves both"
        )
        func sendableExistentials() throws {
            // snippet: migration-sendable
            let unsure = ServiceHive()
            try unsure.register((any Notepad).self) { PlainNotepad() }
            let notepad = try unsure.resolve((any Notepad).self)  // fine
            let refused = try? unsure.resolve((any Notepad & Sendable).self)  // nil: throws notSendable

            let sure = ServiceHive()
            try sure.register((any Notepad & Sendable).self) { FrozenNotepad(["a"]) }
            let plain = try sure.resolve((any Notepad).self)  // the FrozenNotepad
            let sendable = try sure.resolve((any Notepad & Sendable).self)  // the same registration
            // end-snippet
            #expect(notepad is PlainNotepad)
            #expect(refused == nil)
            let thrown = #expect(throws: ServiceHiveError.self) {
                _ = try unsure.resolve((any Notepad & Sendable).self)
            }
            guard case .notSendable(let key, chain: [])? = thrown else {
                Issue.record("expected notSendable, got \(String(describing: thrown))")
                return
            }
            #expect(key.service == "Notepad")
            #expect(plain.lines == ["a"] && sendable.lines == ["a"])
        }

        @Test("Resolves throw: an Optional is nil for a missing service, but a missing dependency still throws")
        func resolvesThrow() throws {
            var message = ""
            // snippet: migration-throws
            let hive = ServiceHive()
            try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }

            let trade: (any TradeService)? = try hive.resolve()  // nil: TradeService is not registered
            do {
                _ = try hive.resolve((any Cart)?.self)  // throws: Cart is registered, what it needs is not
            } catch {
                print(error)  // TradeService is not registered (needed by Cart). …
                message = "\(error)"
            }
            // end-snippet
            #expect(trade == nil)
            #expect(message.hasPrefix("TradeService is not registered (needed by Cart)"))
        }

        @Test("Async: a synchronous factory that resolves an async registration throws requiresAsync")
        func asyncNeedsResolveAsync() async throws {
            // snippet: migration-requires-async
            let hive = ServiceHive()
            try hive.register(Database.self, scope: .singleton) { _ async throws in try await LiveDatabase.connect() }
            try hive.register(Cart.self) { r in
                _ = try r.resolve(Database.self)  // throws requiresAsync: a synchronous factory cannot wait
                return LiveCart(trade: LiveTradeService())
            }

            let database = try await hive.resolveAsync(Database.self)  // built
            let cart = try? await hive.resolveAsync(Cart.self)  // nil: its factory resolves Database synchronously
            // end-snippet
            #expect(database.name == "live")
            #expect(cart == nil)
            let nested = await #expect(throws: ServiceHiveError.self) { _ = try await hive.resolveAsync(Cart.self) }
            guard case .requiresAsync(_, chain: let chain)? = nested else {
                Issue.record("expected requiresAsync, got \(String(describing: nested))")
                return
            }
            #expect(chain == [ServiceHive.ServiceKey(Cart.self)])
        }

        @Test("Named scopes: reset by scope drops the scope's instances; reset by type drops one and what used it")
        func namedScopes() throws {
            let hive = ServiceHive()
            // snippet: migration-named-scopes
            try hive.register(Session.self, scope: .signedIn) { LiveSession() }
            try hive.register(Cart.self, scope: .signedIn) { r in LiveCart(trade: try r.resolve()) }
            try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
            let session = try hive.resolve(Session.self)
            let cart = try hive.resolve(Cart.self)
            let trade = try hive.resolve(TradeService.self)

            hive.resetInstances(in: .signedIn)  // signing out: every instance of the scope goes
            #expect(try hive.resolve(Session.self) !== session)
            let newCart = try hive.resolve(Cart.self)
            #expect(identity(of: newCart) != identity(of: cart))
            let newSession = try hive.resolve(Session.self)
            hive.resetInstances(of: TradeService.self)  // TradeService goes, and any Cart built from it
            // end-snippet
            #expect(try hive.resolve(TradeService.self) !== trade)
            let thirdCart = try hive.resolve(Cart.self)
            #expect(identity(of: thirdCart) != identity(of: newCart), "the cart was built from the dropped service")
            #expect(try hive.resolve(Session.self) === newSession, "what did not use it stays")
        }

        // MARK: - Components

        @Test("Components: a component's command answers a call by name, and a command it lacks throws code 200")
        func component() throws {
            var code: Int?
            // snippet: migration-component
            let hive = ServiceHive()
            try hive.registerComponent("main", scope: .singleton) { _ in
                MainComponent()
            } commands: { component in
                component.command("appName") { main, call in
                    ["name": main.appName(prefix: try call.argument("prefix"))]
                }
            }

            let reply = try hive.call("main", "appName", arguments: ["prefix": "My "])
            print(try reply.value("name", as: String.self))  // My Hive
            do {
                _ = try hive.call("main", "appname")
            } catch let error as ComponentError {
                print(error.code)  // 200, ATComponentService's code for an unsupported command
                code = error.code
            }
            // end-snippet
            #expect(try reply.value("name", as: String.self) == "My Hive")
            #expect(code == 200)
        }
    }
}

// MARK: - Declarations of the article's snippets

// snippet: migration-scope-declaration
extension ServiceHive.Scope {
    static let signedIn = Self.named("signed-in")
}
// end-snippet

extension MigrationArticle {
    // snippet: migration-wrapper-declaration
    struct CheckoutScreen {
        @ServiceHive.Injected var trade: any TradeService  // resolved from ServiceHive.shared when the screen is made
        @ServiceHive.LazyInjected var clock: any Clock  // resolved on first read
    }
    // end-snippet
}

/// The identity of a cart, whose protocol is not class-bound.
private func identity(of cart: any MigrationArticle.Cart) -> ObjectIdentifier { ObjectIdentifier(cart as AnyObject) }
