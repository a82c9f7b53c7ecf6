import ServiceHive
import TradeModule

/// The narrated tour of ServiceHive that `swift run Demo` prints. It is deterministic: the same lines every run.
struct Tour {
    let modules: [any ServiceModule]
    let console: Console

    func run() async -> Int32 {
        do {
            try await tour()
            return 0
        } catch {
            console.error("The tour stopped: \(error)")
            return 1
        }
    }

    private func say(_ line: String = "") { console.out(line) }

    /// Prints a chapter's number, title and explanation.
    ///
    /// - Returns: What prints one line of the chapter, indented under its title.
    @discardableResult
    func section(_ number: Int, _ title: String, _ explanation: String) -> (String) -> Void {
        say()
        say("\(number). \(title)")
        say("   \(explanation)")
        return { [console] line in console.out("   " + line) }
    }

    private func tour() async throws {
        say("ServiceHive: a tour")
        say("Business modules register services against protocols; callers resolve them by protocol alone.")

        section(
            1, "Install the modules",
            "Each goes after the modules that provide what it needs; all register or none, then they start in order.")
        let hive = ServiceHive()
        let console = console
        say("   given     \(modules.map(\.name).joined(separator: ", "))")
        try await hive.install(NarratedModule.narrating(modules) { console.out("   " + $0) })
        say("   installed \(hive.installedModules.joined(separator: ", ")), and they stop in reverse")
        say("   why       \(NarratedModule.why(modules))")

        section(
            2, "Health checks, one contributed by each module",
            "Each module adds its own to one collection; resolveAll returns them in the order the modules installed.")
        let contributions = hive.registrations.filter(\.isContribution)
        for check in try hive.resolveAll(HealthCheck.self) {
            let status = await check.check()
            let module = contributions.first { $0.name == check.name }?.module ?? "-"
            say("   \(check.name.padded(to: 9))\("\(status)".padded(to: 9))contributed by \(module)")
        }

        section(3, "The registry", "Every registration, with its scope, module and source line.")
        for line in hive.description.split(separator: "\n") { say("   \(line)") }

        section(4, "Resolve TradeService by its protocol, and trade", "The business rules live in the service.")
        let trade = try hive.resolve(TradeService.self)
        say("   quote     \(try trade.quote(itemId: "hive-42", quantity: 2))")
        let order = try trade.placeOrder(itemId: "hive-42", quantity: 2)
        say("   placed    \(order)")
        await hive.broadcast(OrderPlaced(order: order))
        let log = try hive.resolve(AuditLog.self)
        say("   audited   \(log.entries.joined(separator: "; ")), in \(log.title)")
        do {
            _ = try trade.placeOrder(itemId: "hive-42", quantity: 4)
        } catch {
            say("   refused   \(error)")
        }
        await hive.broadcast(Restock(itemId: "hive-42", quantity: 10))
        let inventory = try hive.resolve(InventoryService.self)
        say("   restocked by a broadcast event: \(inventory.stock(of: "hive-42") ?? 0) of hive-42 in stock")
        // The inventory is registered once, and forwarded as InventoryService and as the read-only StockReader.
        let reader = try hive.resolve(StockReader.self)
        let instances = reader as AnyObject === inventory as AnyObject ? "one instance" : "two instances"
        say(
            "   forwarded InventoryService and StockReader are \(instances), so StockReader sees the restock too: "
                + "\(reader.stock(of: "hive-42") ?? 0) of hive-42")
        say(
            "   premium   \(try hive.resolve(TradeService.self, name: "premium").quote(itemId: "hive-42", quantity: 2))"
        )
        let basket = try hive.resolve(Basket.self, arguments: "customer-7")
        basket.add(itemId: "honey-jar", quantity: 3)
        say("   basket    \(basket.customerId): \(try basket.checkout().map(\.description).joined(separator: "; "))")

        section(5, "The same flow inside an override scope, with a mock pricing", "Tests swap services this way.")
        try hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing() }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            say("   quote     \(try trade.quote(itemId: "hive-42", quantity: 2))")
            say("   placed    \(try trade.placeOrder(itemId: "hive-42", quantity: 2))")
            say("   TradeService is built from the mock, so the override has its own, counting from order #1;")
            say("   the inventory is built from nothing overridden, so it is the shared one, stock included.")
        }
        say("   outside   \(try hive.resolve(TradeService.self).quote(itemId: "hive-42", quantity: 2))")

        section(6, "Clear errors", "Each one names the service and says how to fix it.")
        do {
            _ = try hive.resolve(PaymentService.self)
        } catch {
            say("   \(error)")
        }
        let scratch = ServiceHive(parent: hive)
        try scratch.register(Ledger.self) { r in LedgerBook(auditor: try r.resolve()) }
        try scratch.register(Auditor.self) { r in LedgerAuditor(ledger: try r.resolve()) }
        do {
            _ = try scratch.resolve(Ledger.self)
        } catch {
            say("   \(error)")
        }

        section(
            7, "Check, then validate the composition root",
            "The check reads the dependencies registrations declare and builds nothing; validation builds the rest.")
        let check = hive.check()
        say("   check     \(check.checked) registrations declare their dependencies: \(check.problems.count) problems")
        // A singleton that takes the session's customer by its initializer would keep the first customer forever.
        let captive = ServiceHive(parent: hive)
        try captive.register(OrderHistory.self, scope: .singleton, initializer: OrderHistory.init)
        for problem in captive.check().problems { say("   \(problem)") }
        for line in hive.validate().description.split(separator: "\n") { say("   \(line)") }

        try await componentsChapter(hive, number: 8)

        section(9, "Shut down", "Modules stop in reverse order.")
        await hive.shutdown()
        try await businessComponentsChapter(number: 10)
        try await sessionChapter(number: 11)
        say()
        say("Next: swift run Demo graph, for TradeModule's dependency graph; swift run Demo --help, for the rest")
    }
}

/// The mock pricing of the tour's override scope.
private struct FlatPricing: PricingService {
    var tier: String { "mock" }
    func unitPrice(of itemId: String) -> Money? { Money(cents: 100) }
}

/// A history of one customer's orders, registered by initializer as a singleton: the check's captive dependency.
private final class OrderHistory: Sendable {
    let session: any CustomerSession
    init(session: any CustomerSession) { self.session = session }
}

/// Two services that need each other, to show the cycle error.
private protocol Ledger: Sendable {}
private protocol Auditor: Sendable {}
private struct LedgerBook: Ledger { let auditor: any Auditor }
private struct LedgerAuditor: Auditor { let ledger: any Ledger }
