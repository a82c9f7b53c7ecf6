import ServiceHive
import Support
import Testing

@Suite("Registering services", .timeLimit(.minutes(5)))
struct RegistrationTests {
    @Test("a registered factory resolves by protocol, and a new instance comes back each time by default")
    func transientByDefault() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }

        let first: any TradeService = try hive.resolve()
        let second = try hive.resolve(TradeService.self)
        #expect(first.label == "live")
        #expect(first !== second)
    }

    @Test("registering the same protocol twice throws alreadyRegistered and keeps the first")
    func duplicateKeepsFirst() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService(label: "first") }

        #expect(throws: ServiceHiveError.self) {
            try hive.register(TradeService.self) { LiveTradeService(label: "second") }
        }
        #expect(try hive.resolve(TradeService.self).label == "first")
    }

    @Test("duplicates are refused for every kind of key: plain, named, with arguments, and instances")
    func duplicatesOfEveryKind() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(TradeService.self, name: "premium") { PremiumTradeService() }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String, times: Int) in
            LiveGreeter(name: name, times: times)
        }

        #expect(throws: ServiceHiveError.self) { try hive.register(TradeService.self, instance: LiveTradeService()) }
        #expect(throws: ServiceHiveError.self) {
            try hive.register(TradeService.self, name: "premium", scope: .singleton) { PremiumTradeService() }
        }
        #expect(throws: ServiceHiveError.self) {
            try hive.register(Greeter.self) { (_: ServiceHive.Resolver, other: String) in LiveGreeter(name: other) }
        }
        // A different argument list, or a different name, is a different registration.
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, times: Int) in LiveGreeter(name: "x", times: times)
        }
        try hive.register(TradeService.self, name: "other") { LiveTradeService() }
    }

    @Test("alreadyRegistered names the first registration's place and the rejected one's")
    func duplicateNamesBothPlaces() throws {
        let hive = ServiceHive()
        let firstLine: UInt = #line + 1
        try hive.register(TradeService.self) { LiveTradeService() }
        let secondLine: UInt = #line + 2
        do {
            try hive.register(TradeService.self) { LiveTradeService() }
            Issue.record("expected alreadyRegistered")
        } catch let error as ServiceHiveError {
            guard case let .alreadyRegistered(key, existing, rejected) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(key == ServiceHive.ServiceKey(TradeService.self))
            #expect(existing == ServiceHive.RegistrationSite(fileID: #fileID, line: firstLine))
            #expect(rejected == ServiceHive.RegistrationSite(fileID: #fileID, line: secondLine))
        }
    }

    @Test("isRegistered sees plain, named and argument registrations, and parents")
    func isRegistered() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService() }
        try child.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }

        #expect(child.isRegistered(TradeService.self))
        #expect(!child.isRegistered(TradeService.self, name: "premium"))
        #expect(child.isRegistered(Greeter.self, arguments: String.self))
        #expect(!child.isRegistered(Greeter.self))
        #expect(!child.isRegistered(Greeter.self, arguments: Int.self))
        #expect(!parent.isRegistered(Greeter.self, arguments: String.self))
    }

    @Test("unregister removes the registration, drops its singleton, and reports whether it removed anything")
    func unregister() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        weak let cached = try hive.resolve(TradeService.self)

        #expect(hive.unregister(TradeService.self))
        #expect(cached == nil, "the singleton is released")
        #expect(!hive.unregister(TradeService.self))
        #expect(!hive.isRegistered(TradeService.self))
        #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }

        try hive.register(TradeService.self, scope: .singleton) {
            builds.increment()
            return LiveTradeService()
        }
        _ = try hive.resolve(TradeService.self)
        #expect(builds.current == 2, "a new registration builds its own singleton")
    }

    @Test("a service with hundreds of names and argument lists resolves each one, and unregisters each one")
    func manyVariants() throws {
        let hive = ServiceHive()
        for index in 0..<300 {
            try hive.register(TradeService.self, name: "n\(index)") { LiveTradeService(label: "n\(index)") }
        }
        try hive.register(Greeter.self, name: "n7") { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name)
        }
        for index in stride(from: 0, to: 300, by: 7) {
            #expect(try hive.resolve(TradeService.self, name: "n\(index)").label == "n\(index)")
        }
        for index in stride(from: 0, to: 300, by: 2) {
            #expect(hive.unregister(TradeService.self, name: "n\(index)"))
        }
        #expect(!hive.isRegistered(TradeService.self, name: "n0"))
        #expect(try hive.resolve(TradeService.self, name: "n1").label == "n1")
        #expect(try hive.resolve(Greeter.self, name: "n7", arguments: "x").greeting == "Hello, x!")
        #expect(hive.registrations.count == 151)
    }

    @Test("unregister with argument types removes only that argument list")
    func unregisterArguments() throws {
        let hive = ServiceHive()
        try hive.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
        try hive.register(Greeter.self) { LiveGreeter(name: "nobody") }

        #expect(!hive.unregister(Greeter.self, arguments: Int.self))
        #expect(hive.unregister(Greeter.self, arguments: String.self))
        #expect(!hive.isRegistered(Greeter.self, arguments: String.self))
        #expect(hive.isRegistered(Greeter.self))
    }

    @Test("unregistering a child's registration makes the parent's visible again, and leaves the parent's alone")
    func unregisterInChild() throws {
        let parent = ServiceHive()
        let child = ServiceHive(parent: parent)
        try parent.register(TradeService.self) { LiveTradeService(label: "parent") }
        try child.register(TradeService.self) { LiveTradeService(label: "child") }

        #expect(try child.resolve(TradeService.self).label == "child")
        #expect(child.unregister(TradeService.self))
        #expect(try child.resolve(TradeService.self).label == "parent")
        #expect(!child.unregister(TradeService.self), "a child cannot remove its parent's registration")
        #expect(parent.isRegistered(TradeService.self))
    }

    @Test("a trailing closure is always a factory, even for Any: register(Any.self) { 42 } resolves 42")
    func trailingClosureIsAFactory() throws {
        let hive = ServiceHive()
        try hive.register(Any.self) { 42 }
        try hive.register((any Sendable).self, name: "sendable") { 7 }
        #expect(try hive.resolve(Any.self) as? Int == 42)
        #expect(try hive.resolve((any Sendable).self, name: "sendable") as? Int == 7)
        try hive.register(Any.self, name: "instance", instance: 3)
        #expect(try hive.resolve(Any.self, name: "instance") as? Int == 3)
    }
}

@Suite("Registering and unregistering at scale", .timeLimit(.minutes(5)))
struct RegistrationScaleTests {
    // Only what happens, never how fast: a test's timing depends on the machine and on the tests beside it. That
    // unregistering is amortized O(1) is the Benchmarks package's claim, from instruction counts: scenarios 25a and 25b
    // unregister one of 4,000 and one of 16,000 named variants (Benchmarks/count-instructions 25a 25b).
    @Test(
        "16,000 named variants of one service each resolve, and unregister in any order, keeping the others and forwards"
    )
    func sixteenThousandVariants() throws {
        let count = 16_000
        let hive = ServiceHive()
        for index in 0..<count {
            try hive.register(TradeService.self, name: "variant \(index)") {
                LiveTradeService(label: "variant \(index)")
            }
        }
        try hive.register(Cart.self, scope: .singleton) { r in LiveCart(trade: try r.resolve(name: "variant 0")) }
        try hive.forward(Cart.self, name: "forward", to: Cart.self) { $0 }
        #expect(hive.registrations.count == count + 2)
        let wrong = (0..<count).filter {
            (try? hive.resolve(TradeService.self, name: "variant \($0)").label) != "variant \($0)"
        }
        #expect(wrong.isEmpty, "variants that did not resolve to themselves: \(wrong.prefix(10))")

        // The odd ones first, from the front; then the even ones but the first, from the back.
        let order = Array(stride(from: 1, to: count, by: 2)) + Array(stride(from: count - 2, to: 0, by: -2))
        let notRemoved = order.filter { !hive.unregister(TradeService.self, name: "variant \($0)") }
        #expect(notRemoved.isEmpty, "variants that unregister did not find: \(notRemoved.prefix(10))")
        #expect(hive.registrations.map(\.service).sorted() == ["Cart", "Cart", "TradeService"])
        #expect(try hive.resolve(TradeService.self, name: "variant 0").label == "variant 0")
        #expect(!hive.isRegistered(TradeService.self, name: "variant 1"))
        #expect(!hive.isRegistered(TradeService.self, name: "variant \(count - 2)"))
        #expect(try hive.resolve(Cart.self, name: "forward").trade === hive.resolve(Cart.self).trade)
    }
}
