import ServiceHive
import Support
import Testing

@Suite("Tracing resolves", .timeLimit(.minutes(5)))
struct TraceTests {
    @Test("a trace shows each service, its scope, whether it was built or cached, as a tree")
    func tree() throws {
        let hive = ServiceHive()
        try hive.register(Clock.self, scope: .singleton) { SystemClock() }
        try hive.register(TradeService.self) { LiveTradeService() }
        try hive.register(Report.self) { r in
            _ = try r.resolve(TradeService.self)
            return LiveReport(header: try r.resolve(Clock.self), footer: try r.resolve(Clock.self))
        }
        let traces = Locked<[ServiceHive.Trace]>([])
        hive.trace = { trace in traces.withLock { $0.append(trace) } }
        _ = try hive.resolve(Report.self)
        hive.trace = nil
        _ = try hive.resolve(Report.self)

        let recorded = traces.current
        try #require(recorded.count == 1, "one top-level resolve traced, none after tracing was turned off")
        let root = recorded[0].root
        #expect(root.key == ServiceHive.ServiceKey(Report.self) && root.scope == .transient && root.outcome == .built)
        #expect(root.children.map(\.key.service) == ["TradeService", "Clock", "Clock"])
        #expect(root.children.map(\.outcome) == [.built, .built, .cached])
        let lines = recorded[0].description.split(separator: "\n").map { String($0) }
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("Report (transient) built in "))
        #expect(lines[1].hasPrefix("├─ TradeService (transient) built in "))
        #expect(lines[3] == "└─ Clock (singleton) cached")
    }

    @Test("a failed resolve is traced as failed, and reaches the failure hook, which does not swallow it")
    func failures() throws {
        let hive = ServiceHive()
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        let failures = Locked<[String]>([])
        let traces = Locked<[String]>([])
        hive.onResolutionFailure = { error in failures.withLock { $0.append("\(error)") } }
        #expect(throws: ServiceHiveError.self) { try hive.resolve(Cart.self) }
        hive.trace = { trace in traces.withLock { $0.append("\(trace)") } }
        #expect(throws: ServiceHiveError.self) { try hive.resolve(Cart.self) }
        #expect(failures.current.count == 2)
        #expect(failures.current[0].hasPrefix("TradeService is not registered (needed by Cart)"))
        #expect(traces.current == ["Cart (transient) failed\n└─ TradeService failed"])
    }

    @Test(
        "the failure hook hears each failed top-level resolve once, sync or async, traced or not, whatever the factory",
        arguments: [false, true], [false, true])
    func failureHookOncePerResolve(async: Bool, traced: Bool) async throws {
        let hive = ServiceHive()
        if traced { hive.trace = { _ in } }
        try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
        try hive.register(Cart.self, name: "async") { r async throws in LiveCart(trade: try await r.resolveAsync()) }
        // An async factory whose dependency's synchronous factory fails: one failure, of the top-level resolve.
        try hive.register(Cart.self, name: "nested", scope: .singleton) { r async throws in
            try await r.resolveAsync(Cart.self)
        }
        // An async factory that resolves synchronously, and fails.
        try hive.register(Cart.self, name: "synchronous") { r async throws in try r.resolve(Cart.self) }
        let failures = Locked<[String]>([])
        hive.onResolutionFailure = { error in failures.withLock { $0.append("\(error)") } }
        for name in [nil, "async", "nested", "synchronous"] where async || name == nil {
            if async {
                await #expect(throws: ServiceHiveError.self) { try await hive.resolveAsync(Cart.self, name: name) }
            } else {
                #expect(throws: ServiceHiveError.self) { try hive.resolve(Cart.self, name: name) }
            }
        }
        let expected = async ? 4 : 1
        #expect(failures.current.count == expected, "\(failures.current)")
        #expect(failures.current.allSatisfy { $0.hasPrefix("TradeService is not registered (needed by Cart") })
    }
}
