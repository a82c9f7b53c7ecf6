import ServiceHive
import Testing

// The README's module and validation snippets. `DocumentationSnippetTests` checks that they stay the same.

struct SaleStarted: ServiceModuleEvent {
    let percentOff: Int
}

// snippet: module
struct ShopModule: ServiceModule {
    var name: String { "Shop" }
    var provides: [ServiceHive.ServiceReference] { [.service(TradeService.self)] }  // before modules that need it

    func register(in hive: ServiceHive) throws {
        try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
    }

    func start(in hive: ServiceHive) async throws {
        _ = try hive.resolve(TradeService.self).quote(itemId: "hive-42")
    }

    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        guard let sale = event as? SaleStarted else { return }  // ignore the rest
        print("Shop: sale at \(sale.percentOff)% off")
    }
}

@Suite("Module snippets", .timeLimit(.minutes(5)))
struct ModuleSnippetTests {
    @Test("the module snippet installs, broadcasts and shuts down")
    func module() async throws {
        let hive = ServiceHive()
        try await hive.install(ShopModule())
        await hive.broadcast(SaleStarted(percentOff: 20))
        await hive.shutdown()
        // end-snippet
        #expect(hive.registrations.map(\.module) == ["Shop"])
        #expect(hive.installedModules.isEmpty)
    }

    // snippet: validate
    @Test func theCompositionRootIsSound() async throws {
        let hive = ServiceHive()
        try await hive.install(ShopModule())
        #expect(hive.validate().failures.isEmpty)
    }
    // end-snippet
}
