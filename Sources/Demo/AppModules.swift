import ServiceHive
import Support
import TradeModule

// The Demo app's own modules and services, around the TradeModule it installs.

/// The store's settings, loaded when the Config module starts.
protocol StoreConfig: Sendable {
    /// The store's name, or `nil` until the settings are loaded.
    var storeName: String? { get }
}

/// A record of the orders placed, kept by the Audit module.
protocol AuditLog: Sendable {
    /// The log's title, which names the store; empty until the Audit module starts.
    var title: String { get }
    var entries: [String] { get }
    /// Titles the log, when the Audit module starts.
    func open(title: String)
    func record(_ entry: String)
}

/// A service the Demo never registers, to show the error for it.
protocol PaymentService: Sendable {}

/// Broadcast after an order is placed; the Audit module records it.
struct OrderPlaced: ServiceModuleEvent {
    let order: Order
}

/// Registers the store's settings, and the one URL scheme the app answers, and contributes a health check; loads the
/// settings when it starts, as an app reads its configuration.
struct ConfigModule: ServiceModule {
    private let settings = Settings()

    var name: String { "Config" }
    var provides: [ServiceHive.ServiceReference] { [.service(StoreConfig.self)] }

    func register(in hive: ServiceHive) throws {
        try hive.register(StoreConfig.self, instance: settings)
        try hive.acceptURLSchemes(["shop"])  // links into the app: shop://component/command?…
        try hive.contribute(HealthCheck.self, name: "config", scope: .singleton) { r in
            ConfigHealthCheck(config: try r.resolve())
        }
    }

    func start(in hive: ServiceHive) async throws {
        settings.load(storeName: "The Hive Shop")
    }

    private final class Settings: StoreConfig {
        private let name = Locked<String?>(nil)
        var storeName: String? { name.current }
        func load(storeName: String) { name.withLock { $0 = storeName } }
    }
}

/// Keeps an audit log of orders, from `OrderPlaced` events, titled with the store's name when it starts: it needs the
/// store's settings, loaded by the module that provides them when that one starts, so it starts after it. It
/// contributes a health check of the log.
struct AuditModule: ServiceModule {
    var name: String { "Audit" }
    var needs: [ServiceHive.ServiceReference] { [.service(StoreConfig.self)] }
    var provides: [ServiceHive.ServiceReference] { [.service(AuditLog.self)] }

    func register(in hive: ServiceHive) throws {
        try hive.register(AuditLog.self, scope: .singleton) { InMemoryAuditLog() }
        try hive.contribute(HealthCheck.self, name: "audit", scope: .singleton) { r in
            AuditHealthCheck(log: try r.resolve())
        }
    }

    func start(in hive: ServiceHive) async throws {
        guard let store = try hive.resolve(StoreConfig.self).storeName else { throw SettingsNotLoaded() }
        try hive.resolve(AuditLog.self).open(title: "\(store)'s audit log")
    }

    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        guard let placed = event as? OrderPlaced, let log = try? hive.resolve(AuditLog.self) else { return }
        log.record("\(placed.order)")
    }

    /// What the Audit module's start throws when it starts before the store's settings are loaded.
    struct SettingsNotLoaded: Error, CustomStringConvertible {
        var description: String { "the store's settings are not loaded yet, so the audit log cannot name the store" }
    }

    private final class InMemoryAuditLog: AuditLog {
        private let state = Locked<(title: String, lines: [String])>(("", []))
        var title: String { state.current.title }
        var entries: [String] { state.current.lines }
        func open(title: String) { state.withLock { $0.title = title } }
        func record(_ entry: String) { state.withLock { $0.lines.append(entry) } }
    }
}

/// The Config module's health check: the store's settings are loaded.
struct ConfigHealthCheck: HealthCheck {
    let config: any StoreConfig
    var name: String { "config" }
    func check() async -> HealthStatus {
        config.storeName == nil ? .unhealthy("the store's settings are not loaded") : .healthy
    }
}

/// The Audit module's health check: the audit log is open.
struct AuditHealthCheck: HealthCheck {
    let log: any AuditLog
    var name: String { "audit" }
    func check() async -> HealthStatus {
        log.title.isEmpty ? .unhealthy("the audit log is not open") : .healthy
    }
}

/// Wraps a module to narrate its lifecycle in the tour, with what put it where it is in the order.
struct NarratedModule: ServiceModule {
    let module: any ServiceModule
    /// Why the module goes where it does, such as `needs StoreConfig, which Config provides`.
    let reason: String
    let say: @Sendable (String) -> Void

    var name: String { module.name }
    var priority: Int { module.priority }
    var needs: [ServiceHive.ServiceReference] { module.needs }
    var provides: [ServiceHive.ServiceReference] { module.provides }

    func register(in hive: ServiceHive) throws {
        say("register  \(name.padded(to: 8))\(reason)")
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

    /// Why `modules` install in the order they do: which need put which module after which, and how the others are
    /// ordered. For example: `Audit after Config, whose StoreConfig it needs; Trade and Config in the order given`.
    static func why(_ modules: [any ServiceModule]) -> String {
        var reasons: [String] = []
        var free: [any ServiceModule] = []
        for module in modules {
            let links = module.needs.compactMap { need in
                modules.first { $0.provides.contains(need) }.map { (provider: $0.name, service: need) }
            }
            guard !links.isEmpty else {
                free.append(module)
                continue
            }
            let providers = links.map(\.provider).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let services = links.map { "\($0.service)" }.joined(separator: ", ")
            reasons.append("\(module.name) after \(providers.joined(separator: ", ")), whose \(services) it needs")
        }
        if !free.isEmpty {
            let names = free.map(\.name).joined(separator: free.count == 2 ? " and " : ", ")
            let samePriority = Set(free.map(\.priority)).count == 1
            reasons.append("\(names) \(samePriority ? "in the order given" : "by priority, then in the order given")")
        }
        return reasons.joined(separator: "; ")
    }

    /// The modules, each narrated with why it goes where it does among the others: the services it needs and the
    /// modules that provide them, and its priority if it has one.
    static func narrating(_ modules: [any ServiceModule], say: @escaping @Sendable (String) -> Void) -> [Self] {
        modules.map { module in
            let needs = module.needs.map { need in
                let provider = modules.first { $0.provides.contains(need) }.map { "which \($0.name) provides" }
                return "\(need), \(provider ?? "which the hive has")"
            }
            var reasons = [needs.isEmpty ? "needs nothing" : "needs " + needs.joined(separator: "; ")]
            if module.priority != 0 { reasons.append("priority \(module.priority)") }
            return NarratedModule(module: module, reason: reasons.joined(separator: ", "), say: say)
        }
    }
}

/// The app's modules, the composition root's single source.
enum AppModules {
    /// Given in any order: Audit installs after Config all the same, since it needs the settings Config provides.
    static var all: [any ServiceModule] { [AuditModule(), TradeModule(), ConfigModule()] }

    /// The modules of the TradeModule library, whose dependency graph `Demo graph` prints and the README shows. Given
    /// in this order, Cart installs after Trade all the same: it needs Trade's services.
    static var trade: [any ServiceModule] { [CartModule(), TradeModule()] }
}

extension String {
    /// The string, padded with spaces to `width`.
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
