#if ServiceLifecycle
import Logging
import ServiceHive
import ServiceHiveLifecycle
import ServiceLifecycle
import Testing

/// The README's modules: each registers one service.
private struct TradeModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Marker.self, name: "trade") { Marker() }
    }
}

private struct AnalyticsModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Marker.self, name: "analytics") { Marker() }
    }
}

@Suite("The README")
struct ReadmeSnippetTests {
    /// The README's example, word for word but for `server`, which is passed in. Running it would trap SIGTERM and
    /// SIGINT for the rest of the test process, so the test only builds it.
    private func example(server: some Service) -> ServiceGroup {
        let hive = ServiceHive()
        let logger = Logger(label: "app")
        let group = ServiceGroup(
            services: [
                ModulesService([TradeModule(), AnalyticsModule()], in: hive),  // first, so that the modules stop last
                server,
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        return group
    }

    @Test("the example compiles, and its service is named after its modules")
    func example() {
        _ = example(server: Sentinel(journal: Journal()))
        #expect(
            String(describing: ModulesService([TradeModule(), AnalyticsModule()]))
                == "ModulesService(TradeModule, AnalyticsModule)")
    }
}
#endif
