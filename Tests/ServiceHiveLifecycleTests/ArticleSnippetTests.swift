#if ServiceLifecycle
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import ServiceHive
import ServiceHiveLifecycle
import ServiceHiveTesting
import ServiceLifecycle
import Support
import Testing

// The article's modules and services, small stand-ins for an app's.

private protocol PricingService: Sendable {
    var tier: String { get }
}

private struct CatalogPricing: PricingService {
    var tier: String { "catalog" }
}

private struct FlatPricing: PricingService {
    var tier: String { "flat" }
}

private protocol CustomerSession: Sendable {}

private struct GuestSession: CustomerSession {}

/// Needs the session that each request provides.
private struct Basket: Sendable {
    let session: any CustomerSession
}

private struct TradeModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(PricingService.self) { CatalogPricing() }
        try hive.register(Basket.self) { r in Basket(session: try r.resolve(CustomerSession.self)) }
    }
}

private struct AnalyticsModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Marker.self, name: "analytics") { Marker() }
    }
}

/// A server that waits for the modules, as the article's.
// snippet: lifecycle-ready
struct Server: Service {
    let modules: ModulesService
    let listening: Journal

    func listen() async throws {
        listening.write("listening")
        try? await gracefulShutdown()
    }

    func run() async throws {
        try await modules.ready()  // throws, and the server never listens, when the modules fail to start
        try await listen()
    }
}
// end-snippet

/// The article's service that validates, with a sample session.
private func validatedModules(hive: ServiceHive) -> ModulesService {
    // snippet: lifecycle-validation
    let modules = ModulesService(
        [TradeModule()], in: hive,
        validation: .all { plan in plan.provide(CustomerSession.self, GuestSession()) }
    )
    // end-snippet
    return modules
}

/// The article's end of a program: compiled, and not run, since it would end the test process.
private func runToTheEnd(_ group: ServiceGroup, logger: Logger) async {
    // snippet: lifecycle-exit
    do {
        try await group.run()
    } catch {
        logger.critical("The service group stopped, and the process exits with status 1: \(error)")
        exit(1)
    }
    // end-snippet
}

/// The app's wiring, as a test receives it.
private func makeServiceGroup(hive: ServiceHive) -> (ModulesService, ServiceGroup) {
    let modules = ModulesService([TradeModule()], in: hive)
    return (modules, ServiceGroup(services: [modules], logger: .quiet))
}

@Suite("The ServiceHiveLifecycle article", .timeLimit(.minutes(5)))
struct ArticleSnippetTests {
    @Test("the group example runs the modules, and the server listens once they are ready")
    func group() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        // The article's group, without the signals, which would stay trapped for the rest of the test process.
        let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive)
        let group = ServiceGroup(services: [modules, Server(modules: modules, listening: journal)], logger: .quiet)
        let run = Task { try await group.run() }
        defer { run.cancel() }
        #expect(try await within("the server to listen") { await journal.next(1) } == ["listening"])
        #expect(hive.installedModules == ["TradeModule", "AnalyticsModule"])
        await group.triggerGracefulShutdown()
        try await within("the group to end") { try await value(of: run) }
        #expect(String(describing: modules) == "ModulesService(TradeModule, AnalyticsModule)")
    }

    @Test("validation with the article's sample makes the service ready; without it, validation fails")
    func validation() async throws {
        for withSamples in [true, false] {
            let hive = ServiceHive()
            let modules =
                withSamples ? validatedModules(hive: hive) : ModulesService([TradeModule()], in: hive, validation: .all)
            let run = Task { try await modules.run() }
            defer { run.cancel() }
            if withSamples {
                try await within("the service to be ready") { try await modules.ready() }
            } else {
                await #expect(throws: ModulesServiceError.self) { try await modules.ready() }
            }
        }
    }

    // snippet: lifecycle-test-hive
    @Test(.testHive { $0.register(PricingService.self) { FlatPricing() } })
    func ordersAtFlatPrices() async throws {
        let hive = try TestHiveTrait.current
        let (modules, group) = makeServiceGroup(hive: hive)  // the app's own wiring
        let run = Task { try await group.run() }
        try await within("the modules to be ready") { try await modules.ready() }  // bounds the article's line
        try await modules.ready()  // the modules installed into the test's hive, with the override
        #expect(try hive.resolve(PricingService.self).tier == "flat")
        await group.triggerGracefulShutdown()
        try await within("the group to end") { try await value(of: run) }  // bounds the article's line
        try await run.value
    }
    // end-snippet
}

/// The article's group: compiled, and not run, since it would take SIGTERM and SIGINT from the test process. The test
/// above runs the same group without them.
private func runModules(server: some Service, logger: Logger) async throws {
    // snippet: lifecycle-group
    let hive = ServiceHive()
    let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive)
    let group = ServiceGroup(
        services: [modules, server],  // modules first, so that they stop last
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    )
    try await group.run()
    // end-snippet
}
#endif
