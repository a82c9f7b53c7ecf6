import Foundation
import ServiceHive
import Support
import Testing

@Suite("Contributions: many implementations of one protocol", .timeLimit(.minutes(5)))
struct ContributionTests {
    // MARK: - Contributing and resolving

    @Test("a collection with no contributions resolves to an empty array, from a hive, a child, a factory and async")
    func emptyCollection() async throws {
        let hive = ServiceHive()
        try hive.register(HealthReport.self) { r in HealthReport(checks: try r.resolveAll()) }
        #expect(try hive.resolveAll(HealthCheck.self).isEmpty)
        #expect(try ServiceHive(parent: hive).resolveAll(HealthCheck.self).isEmpty)
        #expect(try hive.resolve(HealthReport.self).checks.isEmpty)
        #expect(try await hive.resolveAllAsync(HealthCheck.self).isEmpty)
        try hive.register(HealthCheck.self) { LabelledCheck("registered") }
        #expect(try hive.resolveAll(HealthCheck.self).isEmpty, "a registration of the service is not a contribution")
    }

    @Test("contributions resolve in the order contributed, each as its scope says")
    func orderAndScopes() throws {
        let hive = ServiceHive()
        let counter = BuildCounter()
        try hive.contribute(HealthCheck.self, scope: .singleton) { counter.check("disk") }
        try hive.contribute(HealthCheck.self, name: "database") { LabelledCheck("database") }
        try hive.contribute(HealthCheck.self, instance: LabelledCheck("always"))
        try hive.contribute(HealthCheck.self, scope: .singleton) { r in TradeCheck(trade: try r.resolve()) }
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }

        let first: [any HealthCheck] = try hive.resolveAll()
        let second = try hive.resolveAll(HealthCheck.self)
        #expect(first.labels == ["disk", "database", "always", "trade:live"])
        #expect(second.labels == first.labels)
        #expect(first[0] === second[0] && first[2] === second[2] && first[3] === second[3], "singletons and instances")
        #expect(first[1] !== second[1], "a transient contribution is built for each resolve of the collection")
        #expect(counter.current == 1)
    }

    @Test("a contribution is apart from a registration of its service: each resolves and unregisters on its own")
    func apartFromRegistrations() throws {
        let hive = ServiceHive()
        try hive.register(HealthCheck.self) { LabelledCheck("registered") }
        try hive.register(HealthCheck.self, name: "database") { LabelledCheck("registered database") }
        try hive.contribute(HealthCheck.self, name: "database") { LabelledCheck("contributed database") }
        #expect(try hive.resolve(HealthCheck.self).label == "registered")
        #expect(try hive.resolve(HealthCheck.self, name: "database").label == "registered database")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["contributed database"])
        hive.unregister(HealthCheck.self, name: "database")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["contributed database"])
        #expect(hive.removeContribution(HealthCheck.self, name: "database"))
        #expect(try hive.resolve(HealthCheck.self).label == "registered")
        #expect(try hive.resolveAll(HealthCheck.self).isEmpty)
    }

    @Test("a factory resolves a collection, and a singleton built from one keeps what it was built with")
    func factoriesResolveCollections() throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("disk") }
        try hive.register(HealthReport.self, scope: .singleton) { r in HealthReport(checks: try r.resolveAll()) }
        let report = try hive.resolve(HealthReport.self)
        #expect(report.labels == ["disk"])
        #expect(try report.checks[0] === hive.resolveAll(HealthCheck.self)[0], "the collection's singleton, shared")
        try hive.contribute(HealthCheck.self) { LabelledCheck("later") }
        #expect(try hive.resolve(HealthReport.self) === report)
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["disk", "later"])
    }

    @Test("the singletons of a collection are built exactly once while many threads resolve it")
    func exactlyOnceUnderThreads() async throws {
        for _ in 0..<50 {
            let hive = ServiceHive()
            let counter = BuildCounter()
            for index in 0..<4 {
                try hive.contribute(HealthCheck.self, scope: .singleton) {
                    pause(milliseconds: 1)
                    return counter.check("\(index)")
                }
            }
            let seen = try await onThreads(4, "the resolves of the collection") { _ in
                try hive.resolveAll(HealthCheck.self).map { ObjectIdentifier($0) }
            }
            #expect(counter.current == 4)
            #expect(Set(seen).count == 1, "every thread got the same instances")
            #expect(seen.first?.count == 4)
        }
    }

    @Test("a .graph service shared by two contributions is one instance per resolve of the collection")
    func graphScopeIsSharedAcrossContributions() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .graph) { SystemClock() }
        try hive.contribute(HealthCheck.self) { r in ClockCheck(clock: try r.resolve()) }
        try hive.contribute(HealthCheck.self) { r in ClockCheck(clock: try r.resolve()) }
        let first = try hive.resolveAll(HealthCheck.self).map { ($0 as? ClockCheck)?.clock }
        let second = try hive.resolveAll(HealthCheck.self).map { ($0 as? ClockCheck)?.clock }
        let (a, b, c) = (try #require(first[0]), try #require(first[1]), try #require(second[0]))
        #expect(a === b)
        #expect(a !== c)
    }

    @Test("a .weak contribution is shared while held, and built again once released")
    func weakContribution() throws {
        let hive = ServiceHive()
        let counter = BuildCounter()
        try hive.contribute(HealthCheck.self, scope: .weak) { counter.check("weak") }
        var held: (any HealthCheck)? = try hive.resolveAll(HealthCheck.self)[0]
        #expect(try hive.resolveAll(HealthCheck.self)[0] === held)
        held = nil
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["weak"])
        #expect(counter.current == 2)
        withExtendedLifetime(held) {}
    }

    @Test("a collection's values follow every change to its contributions and their instances")
    func valuesFollowChanges() throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("disk") }
        try hive.contribute(HealthCheck.self, name: "session", scope: .named("session")) { LabelledCheck("session") }
        let first = try hive.resolveAll(HealthCheck.self)
        #expect(try hive.resolveAll(HealthCheck.self).map(ObjectIdentifier.init) == first.map(ObjectIdentifier.init))

        try hive.contribute(HealthCheck.self, name: "later", scope: .singleton) { LabelledCheck("later") }
        let added = try hive.resolveAll(HealthCheck.self)
        #expect(added.labels == ["disk", "session", "later"])

        hive.resetInstances(in: .named("session"))
        let reset = try hive.resolveAll(HealthCheck.self)
        #expect(reset[0] === added[0] && reset[1] !== added[1] && reset[2] === added[2])

        hive.resetInstances(of: HealthCheck.self)  // the registration of the service, which has none: nothing changes
        #expect(try hive.resolveAll(HealthCheck.self)[0] === reset[0])
        hive.resetInstances()
        #expect(try hive.resolveAll(HealthCheck.self)[0] !== reset[0])

        #expect(hive.removeContribution(HealthCheck.self, name: "session"))
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["disk", "later"])

        let child = ServiceHive(parent: hive)
        try child.contribute(HealthCheck.self) { LabelledCheck("child") }
        #expect(try child.resolveAll(HealthCheck.self).labels == ["disk", "later", "child"])
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["disk", "later"])
    }

    @Test("a cached contribution built from another family's service is rebuilt inside overrides of that service")
    func crossFamilyContribution() throws {
        let app = ServiceHive()
        try app.register(TradeService.self) { LiveTradeService() }
        let feature = ServiceHive()
        try feature.contribute(HealthCheck.self, scope: .singleton) { _ in TradeCheck(trade: try app.resolve()) }
        let outside = try feature.resolveAll(HealthCheck.self)
        #expect(try feature.resolveAll(HealthCheck.self)[0] === outside[0])
        try app.withOverrides {
            $0.register(TradeService.self) { MockTradeService() }
        } operation: {
            let inside = try feature.resolveAll(HealthCheck.self)
            #expect(inside.labels == ["trade:mock"])
        }
        #expect(try feature.resolveAll(HealthCheck.self)[0] === outside[0])
    }

    // MARK: - Child hives

    @Test("a child sees its ancestors' contributions first, root first, then its own; a parent never sees a child's")
    func childHives() throws {
        let root = ServiceHive()
        let middle = ServiceHive(parent: root)
        let leaf = ServiceHive(parent: middle)
        try leaf.contribute(HealthCheck.self, name: "shared") { LabelledCheck("leaf shared") }
        try middle.contribute(HealthCheck.self) { LabelledCheck("middle") }
        try root.contribute(HealthCheck.self, name: "shared") { LabelledCheck("root shared") }
        try root.contribute(HealthCheck.self) { LabelledCheck("root") }
        #expect(try leaf.resolveAll(HealthCheck.self).labels == ["root shared", "root", "middle", "leaf shared"])
        #expect(try middle.resolveAll(HealthCheck.self).labels == ["root shared", "root", "middle"])
        #expect(try root.resolveAll(HealthCheck.self).labels == ["root shared", "root"])
        let request = root.child { $0.provide(TradeService.self, MockTradeService()) }
        try root.contribute(HealthCheck.self) { r in TradeCheck(trade: try r.resolve()) }
        #expect(try request.resolveAll(HealthCheck.self).labels.last == "trade:mock", "a transient, from the child")
    }

    @Test("a singleton contribution of a parent is built from the parent's view and shared with its children")
    func parentSingletonContribution() throws {
        let parent = ServiceHive()
        try parent.register(TradeService.self) { LiveTradeService() }
        try parent.contribute(HealthCheck.self, scope: .singleton) { r in TradeCheck(trade: try r.resolve()) }
        let child = parent.child { $0.provide(TradeService.self, MockTradeService()) }
        let fromChild = try child.resolveAll(HealthCheck.self)
        #expect(fromChild.labels == ["trade:live"], "never captures the child's services")
        #expect(try parent.resolveAll(HealthCheck.self)[0] === fromChild[0])
    }

    // MARK: - Removing

    @Test("removing a contribution by name, or all of a hive's, leaves the others in their order")
    func removing() throws {
        let parent = ServiceHive()
        try parent.contribute(HealthCheck.self) { LabelledCheck("parent") }
        let hive = ServiceHive(parent: parent)
        for label in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"] {
            try hive.contribute(HealthCheck.self, name: label) { LabelledCheck(label) }
        }
        try hive.contribute(HealthCheck.self) { LabelledCheck("unnamed") }
        #expect(hive.removeContribution(HealthCheck.self, name: "b"))
        #expect(hive.removeContribution(HealthCheck.self, name: "j"))
        #expect(!hive.removeContribution(HealthCheck.self, name: "b"), "gone already")
        #expect(!hive.removeContribution(HealthCheck.self, name: "parent"), "a parent's is untouched")
        #expect(
            try hive.resolveAll(HealthCheck.self).labels
                == ["parent", "a", "c", "d", "e", "f", "g", "h", "i", "k", "unnamed"])
        try hive.contribute(HealthCheck.self, name: "b") { LabelledCheck("b again") }
        #expect(try hive.resolveAll(HealthCheck.self).labels.suffix(2) == ["unnamed", "b again"])
        #expect(hive.removeContributions(of: HealthCheck.self) == 11)
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["parent"])
        #expect(hive.removeContributions(of: HealthCheck.self) == 0)
        try hive.contribute(HealthCheck.self) { LabelledCheck("again") }
        hive.removeAll()
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["parent"])
    }

    // MARK: - Bad input

    @Test("two contributions with one name in one hive are refused, naming both sites; the first stays")
    func duplicateName() throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "db", file: "Orders/OrdersModule.swift", line: 12) {
            LabelledCheck("first")
        }
        let before = snapshot(hive)
        let thrown = error {
            try hive.contribute(HealthCheck.self, name: "db", file: "Billing/BillingModule.swift", line: 30) {
                LabelledCheck("second")
            }
        }
        #expect(
            thrown?.description
                == #"Two contributions to [HealthCheck] in one hive are named "db": the one at "#
                + #"Orders/OrdersModule.swift:12 stays, and the one at Billing/BillingModule.swift:30 was rejected. "#
                + #"To fix, give one of them another name, or remove the first with "#
                + #"hive.removeContribution(HealthCheck.self, name: "db")."#)
        guard case .alreadyRegistered(let key, let existing, let rejected)? = thrown else {
            Issue.record("expected .alreadyRegistered, got \(String(describing: thrown))")
            return
        }
        #expect(key.contributionSite == existing && existing.line == 12 && rejected.line == 30)
        #expect(snapshot(hive) == before)
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["first"])
        try ServiceHive(parent: hive).contribute(HealthCheck.self, name: "db") { LabelledCheck("child's") }
    }

    @Test("a name that starts with the NUL character is refused, and a .weak async contribution too")
    func refusedContributions() throws {
        let hive = ServiceHive()
        let nul = error { try hive.contribute(HealthCheck.self, name: "\u{0}1") { LabelledCheck("x") } }
        guard case .registrationRefused(_, let reason, _)? = nul else {
            Issue.record("expected .registrationRefused, got \(String(describing: nul))")
            return
        }
        #expect(reason.contains("NUL"))
        let weak = error {
            try hive.contribute(HealthCheck.self, scope: .weak) { _ async in LabelledCheck("x") }
        }
        guard case .registrationRefused(let key, _, _)? = weak else {
            Issue.record("expected .registrationRefused, got \(String(describing: weak))")
            return
        }
        #expect(key.contributionSite != nil)
        #expect(hive.registrations.isEmpty)
    }

    // MARK: - Errors, reported as a single resolve's

    @Test("a contribution's factory that throws fails the collection, naming the contribution and its site")
    func factoryFailure() throws {
        let hive = ServiceHive()
        let failing = Locked(true)
        try hive.contribute(HealthCheck.self, scope: .singleton) { LabelledCheck("disk") }
        try hive.contribute(HealthCheck.self, name: "db", scope: .singleton, file: "Orders/Checks.swift", line: 7) {
            if failing.current { throw DatabaseOffline() }
            return LabelledCheck("db")
        }
        let thrown = error { _ = try hive.resolveAll(HealthCheck.self) }
        #expect(
            thrown?.description
                == #"The factory for HealthCheck (contribution "db", at Orders/Checks.swift:7) (needed by "#
                + "[HealthCheck]) threw: database offline. To fix, make the factory succeed; nothing was cached, so "
                + "the next resolve runs it again.")
        guard case .factoryFailed(let key, let chain, _)? = thrown else {
            Issue.record("expected .factoryFailed, got \(String(describing: thrown))")
            return
        }
        #expect(key.contributionSite == ServiceHive.RegistrationSite(fileID: "Orders/Checks.swift", line: 7))
        #expect(chain.map(\.description) == ["[HealthCheck]"])
        failing.withLock { $0 = false }
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["disk", "db"], "nothing was cached")
    }

    @Test("a miss in a contribution's factory names the chain through the collection")
    func missInAContribution() throws {
        let hive = ServiceHive()
        try hive.register(HealthReport.self) { r in HealthReport(checks: try r.resolveAll()) }
        try hive.contribute(HealthCheck.self, file: "Trade/Checks.swift", line: 3) { r in
            TradeCheck(trade: try r.resolve())
        }
        let thrown = error { _ = try hive.resolve(HealthReport.self) }
        #expect(
            thrown?.description
                == "TradeService is not registered (needed by HealthReport → [HealthCheck] → HealthCheck "
                + "(contribution at Trade/Checks.swift:3)). To fix, register it before resolving: "
                + "try hive.register(TradeService.self) { … }")
    }

    @Test("a contribution whose factory resolves its own collection is a cycle, reported as one")
    func cycleThroughTheCollection() throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "summary", file: "App/Checks.swift", line: 9) { r in
            LabelledCheck("summary of \(try r.resolveAll(HealthCheck.self).count)")
        }
        let thrown = error { _ = try hive.resolveAll(HealthCheck.self) }
        #expect(
            thrown?.cycle == [
                #"HealthCheck (contribution "summary", at App/Checks.swift:9)"#, "[HealthCheck]",
                #"HealthCheck (contribution "summary", at App/Checks.swift:9)"#,
            ])
    }

    @Test("the failure hook sees a collection's failure once, and a trace draws the collection with its contributions")
    func hookAndTrace() throws {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, scope: .singleton, file: "App/Checks.swift", line: 1) {
            LabelledCheck("disk")
        }
        try hive.contribute(HealthCheck.self, name: "db", file: "App/Checks.swift", line: 2) { LabelledCheck("db") }
        let traces = Locked<[String]>([])
        hive.trace = { trace in traces.withLock { $0.append("\(trace)".replacing(#/ in \d+ µs/#, with: "")) } }
        _ = try hive.resolveAll(HealthCheck.self)
        _ = try hive.resolveAll(HealthCheck.self)
        hive.trace = nil
        #expect(
            traces.current == [
                """
                [HealthCheck] built
                ├─ HealthCheck (contribution at App/Checks.swift:1) (singleton) built
                └─ HealthCheck (contribution "db", at App/Checks.swift:2) (transient) built
                """,
                """
                [HealthCheck] built
                ├─ HealthCheck (contribution at App/Checks.swift:1) (singleton) cached
                └─ HealthCheck (contribution "db", at App/Checks.swift:2) (transient) built
                """,
            ])

        let failures = Locked<[String]>([])
        hive.onResolutionFailure = { error in failures.withLock { $0.append("\(error)") } }
        try hive.contribute(HealthCheck.self) { throw DatabaseOffline() }
        #expect(throws: ServiceHiveError.self) { try hive.resolveAll(HealthCheck.self) }
        #expect(failures.current.count == 1)
        #expect(failures.current.first?.hasPrefix("The factory for HealthCheck (contribution at ") == true)
    }

    // MARK: - Sendable and async

    @Test("a collection of a Sendable type refuses a contribution not known to be Sendable, naming it")
    func sendableCollections() throws {
        let hive = ServiceHive()
        try hive.contribute(Plugin.self, file: "App/Plugins.swift", line: 4) { PlainPlugin() }
        #expect(try hive.resolveAll(Plugin.self).count == 1)
        let thrown = error { _ = try hive.resolveAll((any Plugin & Sendable).self) }
        guard case .notSendable(let key, _)? = thrown else {
            Issue.record("expected .notSendable, got \(String(describing: thrown))")
            return
        }
        #expect(key.description == "Plugin (contribution at App/Plugins.swift:4)")
        let sendable = ServiceHive()
        try sendable.contribute((any Plugin & Sendable).self) { PlainPlugin() }
        #expect(try sendable.resolveAll((any Plugin & Sendable).self).count == 1)
    }

    @Test(
        "resolveAll of a collection with an async contribution throws requiresAsync naming it; resolveAllAsync builds it"
    )
    func asyncContributions() async throws {
        let hive = ServiceHive()
        let counter = BuildCounter()
        try hive.contribute(HealthCheck.self, scope: .singleton) { counter.check("sync") }
        try hive.contribute(HealthCheck.self, name: "queue", scope: .singleton, file: "App/Queue.swift", line: 5) { _ in
            await Task.yield()
            return counter.check("async")
        }
        try hive.contribute(HealthCheck.self) { LabelledCheck("transient") }
        let thrown = error { _ = try hive.resolveAll(HealthCheck.self) }
        #expect(
            thrown?.description
                == #"HealthCheck (contribution "queue", at App/Queue.swift:5) has an async factory, so it cannot be "#
                + "resolved synchronously (needed by [HealthCheck]). To fix, resolve its collection with try await "
                + "hive.resolveAllAsync(HealthCheck.self), or from an async factory's resolver.")
        let checks = try await hive.resolveAllAsync(HealthCheck.self)
        #expect(checks.labels == ["sync", "async", "transient"])
        let again = try await hive.resolveAllAsync(HealthCheck.self)
        #expect(again[0] === checks[0] && again[1] === checks[1] && again[2] !== checks[2])
        #expect(counter.current == 2)
        let built = error { _ = try hive.resolveAll(HealthCheck.self) }
        guard case .requiresAsync? = built else {  // built or not, as for a single resolve
            Issue.record("expected .requiresAsync, got \(String(describing: built))")
            return
        }
    }

    @Test("an async singleton contribution is built once while many tasks resolve the collection")
    func asyncExactlyOnce() async throws {
        for _ in 0..<50 {
            let hive = ServiceHive()
            let counter = BuildCounter()
            try hive.contribute(HealthCheck.self, scope: .singleton) { _ in
                await Task.yield()
                return counter.check("async")
            }
            try hive.contribute(HealthCheck.self, scope: .singleton) { counter.check("sync") }
            let identities = try await within("eight tasks resolving the collection") {
                try await withThrowingTaskGroup(of: [ObjectIdentifier].self) { tasks in
                    for _ in 0..<8 {
                        tasks.addTask { try await hive.resolveAllAsync(HealthCheck.self).map { ObjectIdentifier($0) } }
                    }
                    return try await tasks.reduce(into: Set<[ObjectIdentifier]>()) { $0.insert($1) }
                }
            }
            #expect(identities.count == 1)
            #expect(counter.current == 2)
        }
    }
}

/// A check that holds a clock, to see which instance of a `.graph` clock it got.
final class ClockCheck: HealthCheck {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
    var label: String { "clock" }
}
