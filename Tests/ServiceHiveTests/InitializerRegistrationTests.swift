import ServiceHive
import Support
import Testing

@Suite("Registering by initializer", .timeLimit(.minutes(5)))
struct InitializerRegistrationTests {
    func pricedHive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
        try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 7) }
        return hive
    }

    @Test("each parameter of the initializer is resolved by its type, and the scope is kept")
    func resolvesEachParameter() throws {
        let hive = try pricedHive()
        try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        let orders = try hive.resolve(Orders.self)
        #expect(orders.pricing === (try hive.resolve(Pricing.self)))
        #expect(orders.ledger.entries == 7)
        #expect(try hive.resolve(Orders.self) === orders, "a singleton is built once")
    }

    @Test("an overload named by its labels is the one called")
    func namesOneOverload() throws {
        let hive = try pricedHive()
        try hive.register(Orders.self, initializer: LiveOrders.init(pricing:))
        #expect(try hive.resolve(Orders.self).ledger.entries == -1)
        #expect(try hive.resolve(Orders.self) !== hive.resolve(Orders.self), "transient by default")
    }

    @Test("a named registration by initializer is resolved by its name only")
    func named() throws {
        let hive = try pricedHive()
        try hive.register(Orders.self, name: "eu", scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        #expect(try hive.resolve(Orders.self, name: "eu").ledger.entries == 7)
        #expect(!hive.isRegistered(Orders.self))
    }

    @Test("optional, lazy, provider and collection parameters mean what they mean for a resolve")
    func wrappedParameters() throws {
        let hive = ServiceHive()
        try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 3) }
        try hive.register(Orders.self) { r in LiveOrders(pricing: FixedPricing(), ledger: try r.resolve()) }
        try hive.contribute(HealthCheck.self) { LabelledCheck("disk") }
        try hive.contribute(HealthCheck.self, initializer: BooksCheck.init)
        try hive.register(Dashboard.self, initializer: Dashboard.init)
        let dashboard = try hive.resolve(Dashboard.self)
        #expect(dashboard.pricing == nil, "nothing registers Pricing, so the optional parameter is nil")
        #expect(try dashboard.ledger.instance.entries == 3)
        #expect(try dashboard.orders.instance !== dashboard.orders.instance, "a provider resolves on every read")
        #expect(dashboard.checks.labels == ["disk", "ledger"], "[T] is every contribution, in order")
    }

    @Test("an initializer of two parameters and one of five resolve each parameter, a collection as its contributions")
    func everyCount() throws {
        let hive = try pricedHive()
        try hive.register(Orders.self, initializer: LiveOrders.init(pricing:ledger:))
        try hive.contribute(HealthCheck.self) { LabelledCheck("disk") }
        try hive.register(Tally.self, initializer: Tally.init)
        try hive.register(Summary.self, initializer: Summary.init)
        let tally = try hive.resolve(Tally.self)
        #expect(tally.pricing === (try hive.resolve(Pricing.self)))
        #expect(tally.checks.labels == ["disk"])
        let summary = try hive.resolve(Summary.self)
        #expect(summary.pricing === tally.pricing)
        #expect(summary.ledger.entries == 7)
        #expect(summary.orders.ledger.entries == 7)
        #expect(summary.checks.labels == ["disk"])
        #expect(summary.spare === tally.pricing)
        #expect(hive.check().isClean)
    }

    @Test("an initializer of two parameters and one of five declare each parameter, by its position")
    func everyCountDeclares() throws {
        let hive = ServiceHive()
        try hive.register(Tally.self, initializer: Tally.init)
        try hive.register(Summary.self, initializer: Summary.init)
        let unmet = hive.check().problems.map { problem -> String in
            guard case .unmetDependency(let key, let parameter, let needs, _, _) = problem else { return "\(problem)" }
            return "\(key.service) \(parameter) needs \(needs.service)"
        }
        #expect(
            unmet == [
                "Tally parameter 1 (Pricing) needs Pricing", "Summary parameter 1 (Pricing) needs Pricing",
                "Summary parameter 2 (Books) needs Books", "Summary parameter 3 (Orders) needs Orders",
            ])
    }

    @Test("a throwing initializer's error is reported as a factory's, and nothing is cached")
    func throwingInitializer() throws {
        let hive = try pricedHive()
        let reachable = Locked(false)
        try hive.register(RemoteBooks.self, scope: .singleton) { (pricing: any Pricing) in
            try RemoteBooks(pricing: pricing, reachable: reachable.current)
        }
        #expect {
            _ = try hive.resolve(RemoteBooks.self)
        } throws: { error in
            guard case ServiceHiveError.factoryFailed(let key, _, let underlying) = error else { return false }
            return key.service == "RemoteBooks" && underlying is RemoteBooks.Unreachable
        }
        reachable.withLock { $0 = true }
        #expect(try hive.resolve(RemoteBooks.self).entries == "remote".count)
    }

    @Test("an async initializer is built by resolveAsync, with its parameters resolved")
    func asyncInitializer() async throws {
        let hive = try pricedHive()
        try hive.register(RemoteBooks.self, scope: .singleton, initializer: RemoteBooks.init(pricing:))
        let ledger = try await hive.resolveAsync(RemoteBooks.self)
        #expect(ledger.entries == "async".count)
        #expect(throws: ServiceHiveError.self) { _ = try hive.resolve(RemoteBooks.self) }
    }

    @Test("runtime arguments fill the leading parameters, and the rest are resolved")
    func runtimeArguments() throws {
        let hive = try pricedHive()
        try hive.register(Quote.self, arguments: String.self, initializer: Quote.init(symbol:pricing:))
        try hive.register(
            Quote.self, arguments: String.self, Int.self, initializer: Quote.init(symbol:quantity:pricing:))
        let one = try hive.resolve(Quote.self, arguments: "ACME")
        #expect(one.symbol == "ACME" && one.quantity == 1 && one.total == 4)
        let three = try hive.resolve(Quote.self, arguments: "ACME", 3)
        #expect(three.quantity == 3 && three.total == 12)
    }

    @Test("a contribution by initializer joins the collection with its parameters resolved")
    func contribution() throws {
        let hive = try pricedHive()
        try hive.contribute(HealthCheck.self, name: "ledger", scope: .singleton, initializer: BooksCheck.init)
        let checks = try hive.resolveAll(HealthCheck.self)
        #expect(checks.labels == ["ledger"])
        #expect((checks.first as? BooksCheck)?.ledger.entries == 7)
    }

    @Test("an override by initializer replaces the registration and resolves the other overrides")
    func override() throws {
        let hive = try pricedHive()
        try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        try hive.withOverrides {
            $0.register(Books.self, instance: MemoryBooks(entries: 99))
            $0.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        } operation: {
            let orders = try hive.resolve(Orders.self)
            #expect(orders.ledger.entries == 99)
        }
        #expect(try hive.resolve(Orders.self).ledger.entries == 7)
    }

    @Test("an existential Sendable service registered by initializer resolves typed as Sendable")
    func sendableService() throws {
        let hive = ServiceHive()
        try hive.register((any Pricing).self, scope: .singleton, initializer: FixedPricing.init)
        let pricing: any Pricing & Sendable = try hive.resolve()
        #expect(pricing.price("abc") == 3)
    }

    @Test("closures stay closures: a trailing closure is a factory, never taken for an initializer")
    func closuresStayClosures() throws {
        let hive = ServiceHive()
        try hive.register(Books.self) { MemoryBooks() }
        try hive.register(Pricing.self) { _ in FixedPricing() }
        try hive.register(Orders.self, initializer: LiveOrders.init(pricing:ledger:))
        let report = hive.check()
        #expect(report.unchecked.map(\.service) == ["Books", "Pricing"])
        #expect(report.checked == 1)
    }

    @Test("a closure registration keeps its declared dependencies, and runs nothing when it is registered")
    func declaredClosure() throws {
        let hive = ServiceHive()
        let built = Locked(0)
        try hive.register(Orders.self, dependsOn: [.on(Pricing.self), .on(Books.self, name: "audit")]) { r in
            built.withLock { $0 += 1 }
            return LiveOrders(pricing: try r.resolve(), ledger: try r.resolve(name: "audit"))
        }
        #expect(built.current == 0)
        let report = hive.check()
        #expect(report.problems.map(\.code) == [20, 20])
        #expect(report.unchecked.isEmpty)
        #expect(built.current == 0, "the check builds nothing")
    }
}
