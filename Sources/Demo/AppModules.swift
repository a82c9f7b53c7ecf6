import ServiceHive
import Support
import TradeModule

// The Demo app's own modules and services, around the TradeModule it installs.

/// The store's settings.
protocol StoreConfig: Sendable {
    var storeName: String { get }
}

/// A record of the orders placed, kept by the Audit module.
protocol AuditLog: Sendable {
    var entries: [String] { get }
    func record(_ entry: String)
}

/// A service the Demo never registers, to show the error for it.
protocol PaymentService: Sendable {}

/// Broadcast after an order is placed; the Audit module records it.
struct OrderPlaced: ServiceModuleEvent {
    let order: Order
}

/// Registers the store's settings, and the one URL scheme the app answers. Infrastructure: it installs first.
struct ConfigModule: ServiceModule {
    var name: String { "Config" }
    var priority: Int { 1_000 }

    func register(in hive: ServiceHive) throws {
        try hive.register(StoreConfig.self, instance: Settings(storeName: "The Hive Shop"))
        try hive.acceptURLSchemes(["shop"])  // links into the app: shop://component/command?…
    }

    private struct Settings: StoreConfig {
        let storeName: String
    }
}

/// Keeps an audit log of orders, from `OrderPlaced` events. A feature: it installs after Trade.
struct AuditModule: ServiceModule {
    var name: String { "Audit" }
    var priority: Int { 10 }

    func register(in hive: ServiceHive) throws {
        try hive.register(AuditLog.self, scope: .singleton) { InMemoryAuditLog() }
    }

    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        guard let placed = event as? OrderPlaced, let log = try? hive.resolve(AuditLog.self) else { return }
        log.record("\(placed.order)")
    }

    private final class InMemoryAuditLog: AuditLog {
        private let lines = Locked<[String]>([])
        var entries: [String] { lines.withLock { $0 } }
        func record(_ entry: String) { lines.withLock { $0.append(entry) } }
    }
}

/// Wraps a module to narrate its lifecycle in the tour.
struct NarratedModule: ServiceModule {
    let module: any ServiceModule
    let say: @Sendable (String) -> Void

    var name: String { module.name }
    var priority: Int { module.priority }

    func register(in hive: ServiceHive) throws {
        say("register  \(name.padded(to: 8))priority \(priority)")
        try module.register(in: hive)
    }

    func start(in hive: ServiceHive) async throws {
        say("start     \(name)")
        try await module.start(in: hive)
    }

    func stop(in hive: ServiceHive) async {
        say("stop      \(name)")
        await module.stop(in: hive)
    }

    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        await module.handle(event, in: hive)
    }
}

/// The app's modules, the composition root's single source.
enum AppModules {
    static var all: [any ServiceModule] { [AuditModule(), TradeModule(), ConfigModule()] }

    /// The modules of the TradeModule library, whose dependency graph `Demo graph` prints and the README shows.
    static var trade: [any ServiceModule] { [TradeModule(), CartModule()] }
}

extension String {
    /// The string, padded with spaces to `width`.
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
