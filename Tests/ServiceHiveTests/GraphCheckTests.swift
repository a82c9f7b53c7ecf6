import ServiceHive
import Support
import Testing

extension ServiceHive.Scope {
    fileprivate static let ledgerSession = Self.named("session")
}

/// A/B that declare each other, for the cycle tests.
final class Alpha: Sendable {
    init(beta: Beta) {}
}
final class Beta: Sendable {
    init(alpha: Alpha) {}
}
final class LazyAlpha: Sendable {
    init(beta: ServiceHive.Lazy<LazyBeta>) {}
}
final class LazyBeta: Sendable {
    init(alpha: LazyAlpha) {}
}
/// Transient that holds the ledger: the link through which a singleton can capture it.
final class BooksReader: Sendable {
    let ledger: any Books
    init(ledger: any Books) { self.ledger = ledger }
}
final class BooksReport: Sendable {
    init(reader: BooksReader) {}
}
final class ProvidedBooksUser: Sendable {
    init(ledger: ServiceHive.Provider<any Books>) {}
}
final class Checks: Sendable {
    init(checks: [any HealthCheck]) {}
}

@Suite("Checking declared dependencies without building", .timeLimit(.minutes(5)))
struct GraphCheckTests {
    @Test("a dependency that nothing registers is reported with its site, its parameter and a did-you-mean")
    func unmet() throws {
        let hive = ServiceHive()
        try hive.register(Pricing.self, name: "eu", initializer: FixedPricing.init)
        try hive.register(MemoryBooks.self, initializer: MemoryBooks.init as @Sendable () -> MemoryBooks)
        let line = #line + 1
        try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        let report = hive.check()
        #expect(report.problems.count == 2)
        guard
            case .unmetDependency(let key, let parameter, let needs, let site, let suggestions) = report.problems.first
        else {
            Issue.record("expected an unmet dependency, got \(report.problems)")
            return
        }
        #expect(key == ServiceHive.ServiceKey(Orders.self))
        #expect(parameter == "parameter 1 (Pricing)")
        #expect(needs == ServiceHive.ServiceKey(Pricing.self))
        #expect(site.line == UInt(line))
        #expect(suggestions == [ServiceHive.ServiceKey(Pricing.self, name: "eu")])
        #expect(
            report.problems[0].description
                == "Orders, registered at ServiceHiveTests/GraphCheckTests.swift:\(line), needs Pricing by its "
                + "parameter 1 (Pricing), which nothing registers. Did you mean Pricing (name: \"eu\")? To fix, "
                + "register it: try hive.register(Pricing.self) { … }, or take it as Pricing? if it may be missing.")
        #expect(report.problems[1].description.contains("needs Books by its parameter 2 (Books)"))
        #expect(report.problems[1].description.contains("Did you mean MemoryBooks?"))
    }

    @Test("two registrations that declare each other are reported as one cycle, drawn as a path")
    func cycle() throws {
        let hive = ServiceHive()
        try hive.register(Alpha.self, scope: .singleton, initializer: Alpha.init)
        try hive.register(Beta.self, initializer: Beta.init)
        let report = hive.check()
        #expect(report.problems.count == 1)
        guard case .dependencyCycle(let path, let parameters, _) = report.problems.first else {
            Issue.record("expected a cycle, got \(report.problems)")
            return
        }
        #expect(path.map(\.service) == ["Alpha", "Beta", "Alpha"])
        #expect(parameters == ["parameter 1 (Beta)", "parameter 1 (Alpha)"])
        #expect(
            report.problems[0].description.hasPrefix(
                "Declared dependencies form a cycle: Alpha —parameter 1 (Beta)→ Beta —parameter 1 (Alpha)→ Alpha."))
    }

    @Test("a lazy link breaks a cycle, so the check reports none")
    func lazyBreaksCycle() throws {
        let hive = ServiceHive()
        try hive.register(LazyAlpha.self, scope: .singleton, initializer: LazyAlpha.init)
        try hive.register(LazyBeta.self, initializer: LazyBeta.init)
        #expect(hive.check().isClean)
        #expect(hive.check().checked == 2)
    }

    @Test("a singleton that holds a named-scope or weak service, directly or through a transient, is captive")
    func captive() throws {
        let hive = ServiceHive()
        try hive.register(Books.self, scope: .ledgerSession) { MemoryBooks() }
        try hive.register(Pricing.self, scope: .weak) { FixedPricing() }
        try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        try hive.register(BooksReader.self, initializer: BooksReader.init)
        try hive.register(BooksReport.self, scope: .singleton, initializer: BooksReport.init)
        try hive.register(ProvidedBooksUser.self, scope: .singleton, initializer: ProvidedBooksUser.init)
        let report = hive.check()
        let captives = report.problems.compactMap { problem -> (String, String, [String], String)? in
            guard case .captiveDependency(let key, _, let parameter, let path, let lifetime, _) = problem else {
                return nil
            }
            return (key.service, parameter, path.map(\.service), lifetime)
        }
        #expect(report.problems.count == 3, "the provider re-resolves, so it captures nothing")
        #expect(captives.map(\.0) == ["Orders", "Orders", "BooksReport"])
        #expect(captives.map(\.3) == ["weak", "session", "session"])
        #expect(captives[2].2 == ["BooksReport", "BooksReader", "Books"])
        #expect(captives[2].1 == "parameter 1 (BooksReader)")
        #expect(
            report.problems[2].description.contains(
                "BooksReport, a singleton registered at ServiceHiveTests/GraphCheckTests.swift:"))
        #expect(
            report.problems[2].description.contains(
                "would hold Books by its parameter 1 (BooksReader) through BooksReader"))
    }

    @Test("a singleton of the parent that needs what only a child hive provides is captive, checked from the child")
    func captiveThroughChild() throws {
        let app = ServiceHive()
        try app.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
        try app.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        try app.register(BooksReader.self, initializer: BooksReader.init)
        let request = app.child { $0.provide(Books.self, MemoryBooks(entries: 1)) }
        let fromChild = request.check()
        #expect(fromChild.problems.count == 1, "the transient reader is built for the child, and sees its ledger")
        guard case .captiveDependency(let key, _, _, let path, let lifetime, _) = fromChild.problems.first else {
            Issue.record("expected a captive dependency, got \(fromChild.problems)")
            return
        }
        #expect(key.service == "Orders" && path.last?.service == "Books" && lifetime == "child hives only")
        #expect(fromChild.problems[0].description.contains("only child hives provide it"))
        let fromRoot = app.check()
        #expect(fromRoot.problems.map(\.code) == [22], "the root knows that children provide it, and no more")
    }

    @Test("closures without declarations are listed as unchecked, instances and forwards are not")
    func unchecked() throws {
        let hive = ServiceHive()
        try hive.register(Books.self) { MemoryBooks() }
        try hive.register(Pricing.self, instance: FixedPricing())
        try hive.register(FixedPricing.self, scope: .singleton) { FixedPricing() }
        try hive.forward(Clock.self, to: FixedPricing.self) { _ in SystemClock() }
        try hive.register(Orders.self, initializer: LiveOrders.init(pricing:ledger:))
        let report = hive.check()
        #expect(report.isClean)
        #expect(report.unchecked.map(\.service) == ["Books", "FixedPricing"])
        #expect(report.checked == 1)
        #expect(report.description.hasSuffix("1 checked, 2 unchecked (closures without dependsOn:)"))
    }

    @Test("a collection parameter is never missing, and a registered array in its place is reported")
    func collection() throws {
        let hive = ServiceHive()
        try hive.register(Checks.self, initializer: Checks.init)
        #expect(hive.check().isClean, "an empty collection is a collection")
        try hive.register([any HealthCheck].self) { [] }
        let report = hive.check()
        #expect(report.problems.map(\.code) == [20])
        #expect(
            report.problems.first?.description.contains(
                "that parameter is the collection of the contributions to HealthCheck") == true)
        try hive.contribute(HealthCheck.self, initializer: BooksCheck.init)
        try hive.register(Books.self, initializer: MemoryBooks.init as @Sendable () -> MemoryBooks)
        #expect(hive.check().isClean, "with a contribution, the parameter takes the contributions")
    }

    @Test("a contribution that takes its own collection is refused when it is registered")
    func selfCollection() throws {
        let hive = ServiceHive()
        #expect {
            try hive.contribute(HealthCheck.self) { (checks: [any HealthCheck]) in LabelledCheck("\(checks.count)") }
        } throws: { error in
            (error as? ServiceHiveError)?.code == 13
                && "\(error)".contains("its parameter 1 (Array<HealthCheck>) is [HealthCheck] itself")
        }
    }

    @Test("an initializer that takes the very service it registers is refused, with the fix")
    func selfDependency() throws {
        let hive = ServiceHive()
        #expect {
            try hive.register(Books.self, initializer: AuditedBooks.init)
        } throws: { error in
            "\(error)"
                == "Books cannot be registered: its parameter 1 (Books) is Books itself, so building it would "
                + "need it already built. To fix, take ServiceHive.Lazy<Books> or ServiceHive.Provider<Books> to "
                + "resolve it later, or, to wrap another implementation, depend on a registration of it under a name."
        }
        #expect(!hive.isRegistered(Books.self), "nothing was registered")
        // The decorator registered under a name, over the plain registration, is fine.
        try hive.register(Books.self) { MemoryBooks(entries: 4) }
        try hive.register(Books.self, name: "audited", initializer: AuditedBooks.init)
        #expect(try hive.resolve(Books.self, name: "audited").entries == 5)
        #expect(hive.check().isClean)
    }

    @Test("a check while another thread registers sees a consistent state and never hangs")
    func concurrentRegistration() async throws {
        let hive = ServiceHive()
        try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
        // Each check walks every registration, so the rounds cost their square: 100 keep it within seconds under
        // ThreadSanitizer on a loaded machine, where 300 took over a minute.
        let rounds = 100
        let seen = try await onThreads(2, "a check beside registrations") { thread -> [Int] in
            var problems: [Int] = []
            for round in 0..<rounds {
                if thread == 0 {
                    // The ledger first, then the orders that need it: one state never has the orders alone.
                    let name = "\(round)"
                    try hive.register(Books.self, name: name) { MemoryBooks() }
                    try hive.register(
                        Orders.self, name: name, dependsOn: [.on(Pricing.self), .on(Books.self, name: name)]
                    ) { r in LiveOrders(pricing: try r.resolve(), ledger: try r.resolve(name: name)) }
                } else {
                    let report = hive.check()
                    // An order without its ledger is an unmet dependency; and every checked order (all but
                    // Pricing) has its ledger, an unchecked closure, registered before it.
                    problems.append(report.problems.count)
                    problems.append(report.unchecked.count >= report.checked - 1 ? 0 : 1)
                }
            }
            return problems
        }
        #expect(seen[1].count == 2 * rounds)
        #expect(seen[1].allSatisfy { $0 == 0 }, "no check saw an order without its ledger")
        #expect(hive.check().checked == rounds + 1)
        #expect(hive.check().unchecked.count == rounds)
    }
}
