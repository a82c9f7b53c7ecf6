import ServiceHive
import Support
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Cycle detection", .timeLimit(.minutes(5)))
struct CycleTests {
    @Test("two transient services that need each other fail with the cycle, not a stack overflow")
    func transientCycle() throws {
        let hive = ServiceHive()
        try hive.register(Chicken.self) { r in LiveChicken(egg: try r.resolve()) }
        try hive.register(Egg.self) { r in LiveEgg(chicken: try r.resolve()) }

        #expect(error { _ = try hive.resolve(Egg.self) }?.cycle == ["Egg", "Chicken", "Egg"])
    }

    @Test("a singleton whose factory resolves itself fails with a one-service cycle")
    func selfResolvingSingleton() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, scope: .singleton) { r in
            _ = try r.resolve(TradeService.self)
            return LiveTradeService()
        }

        #expect(error { _ = try hive.resolve(TradeService.self) }?.cycle == ["TradeService", "TradeService"])
        #expect(
            error { _ = try hive.resolve(TradeService.self) }?.cycle == ["TradeService", "TradeService"],
            "the failed construction left nothing behind")
    }

    @Test("a cycle through factories that call the hive directly, not their resolver, is detected too")
    func cycleThroughDirectResolves() throws {
        let hive = ServiceHive()
        try hive.register(Chicken.self, scope: .singleton) { [unowned hive] in LiveChicken(egg: try hive.resolve()) }
        try hive.register(Egg.self) { [unowned hive] in LiveEgg(chicken: try hive.resolve()) }

        #expect(error { _ = try hive.resolve(Chicken.self) }?.cycle == ["Chicken", "Egg", "Chicken"])
    }

    @Test("the cycle is reported from where it closes, not from the top-level service")
    func cycleBelowTheRoot() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { r in
            _ = try r.resolve(Chicken.self)
            return LiveCart(trade: LiveTradeService())
        }
        try hive.register(Chicken.self, scope: .graph) { r in LiveChicken(egg: try r.resolve()) }
        try hive.register(Egg.self, scope: .singleton) { r in LiveEgg(chicken: try r.resolve()) }

        #expect(error { _ = try hive.resolve(Cart.self) }?.cycle == ["Chicken", "Egg", "Chicken"])
    }

    @Test("named registrations in a cycle keep their names in the chain")
    func namedCycle() throws {
        let hive = ServiceHive()
        try hive.register(TradeService.self, name: "a") { r in try r.resolve(TradeService.self, name: "b") }
        try hive.register(TradeService.self, name: "b") { r in try r.resolve(TradeService.self, name: "a") }

        #expect(
            error { _ = try hive.resolve(TradeService.self, name: "a") }?.cycle
                == ["TradeService (name: \"a\")", "TradeService (name: \"b\")", "TradeService (name: \"a\")"])
    }

    // In a debug build a level takes about 3.5 KiB of stack, in a release build about 1 KiB, so 1,000 levels fit in
    // the usual 8 MiB. Under AddressSanitizer a level takes several times that, so these run on a 64 MiB stack, to
    // pass in every configuration that CI runs.
    @Test(
        "a chain of 1,000 factories resolves without exhausting the stack, for every scope",
        arguments: [ServiceHive.Scope.transient, .singleton, .graph, .weak]
    )
    func deepChain(scope: ServiceHive.Scope) async throws {
        let hive = try chain(of: 1_000, scope: scope)
        let labels = try await onThreads(1, stackSize: 64 << 20) { _ in
            try hive.resolve(TradeService.self, name: "0").label
        }
        #expect(labels == ["bottom"])
    }

    @Test("a chain too deep for the thread's stack fails with stackExhausted instead of crashing")
    func stackExhausted() async throws {
        let hive = try chain(of: 1_000, scope: .transient)
        let outcomes = try await onThreads(1, stackSize: 512 << 10) { _ in
            Result { try hive.resolve(TradeService.self, name: "0") }
        }
        let thrown = error(in: outcomes[0])
        guard case .stackExhausted(_, let chain) = thrown else {
            Issue.record("expected stackExhausted, got \(String(describing: thrown))")
            return
        }
        #expect(chain.count > 10 && chain.count < 1_000)
        #expect(chain.first?.name == "0")
        #expect(
            thrown?.description.hasPrefix(
                "Resolving TradeService (name: \"\(chain.count)\") at depth \(chain.count) would leave less than 128 KiB"
            )
                == true)

        // The thread unwound cleanly: the same hive resolves a short chain afterwards.
        #expect(try hive.resolve(TradeService.self, name: "995").label == "bottom")
    }

    /// A hive where `TradeService` named "0" needs "1", and so on to `depth - 1`, which is the bottom.
    // The stack depths of the Guarantees article: 8 MiB is the default stack of a thread on Linux. AddressSanitizer's frames
    // are several times larger, so there the chain runs out of stack at about depth 500, and must fail cleanly.
    @Test("on an 8 MiB thread 1,000 levels resolve, or under AddressSanitizer fail with stackExhausted past 250")
    func defaultStack() async throws {
        let hive = try chain(of: 1_000, scope: .transient)
        let outcomes = try await onThreads(1, stackSize: 8 << 20) { _ in
            Result { try hive.resolve(TradeService.self, name: "0").label }
        }
        if addressSanitizerIsOn {
            guard case .stackExhausted(_, let chain)? = error(in: outcomes[0]) else {
                Issue.record("expected stackExhausted under AddressSanitizer, got \(outcomes[0])")
                return
            }
            #expect(chain.count > 250 && chain.count < 1_000)
        } else {
            #expect((try? outcomes[0].get()) == "bottom", "\(outcomes[0])")
        }
    }

    /// Whether this process runs under AddressSanitizer: its runtime's entry point is then loaded.
    private var addressSanitizerIsOn: Bool {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, "__asan_init") != nil
    }

    private func chain(of depth: Int, scope: ServiceHive.Scope) throws -> ServiceHive {
        let hive = ServiceHive()
        for level in 0..<depth {
            try hive.register(TradeService.self, name: "\(level)", scope: scope) { r in
                guard level < depth - 1 else { return LiveTradeService(label: "bottom") }
                let next = try r.resolve(TradeService.self, name: "\(level + 1)")
                return LiveTradeService(label: next.label)
            }
        }
        return hive
    }
}
