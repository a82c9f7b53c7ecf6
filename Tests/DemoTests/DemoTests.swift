import Foundation
import ServiceHive
import Support
import Testing
import TradeModule

@testable import Demo

/// A console that keeps what the Demo writes.
final class CapturedConsole: Sendable {
    private let lines = Locked<[(isError: Bool, text: String)]>([])

    var console: Console {
        Console(
            out: { text in self.lines.withLock { $0.append((false, text)) } },
            error: { text in self.lines.withLock { $0.append((true, text)) } }
        )
    }

    /// Standard output, line by line.
    var out: [String] {
        lines.withLock { $0.filter { !$0.isError }.flatMap { $0.text.split(separator: "\n").map(String.init) } }
    }
    /// Standard error, line by line.
    var error: [String] {
        lines.withLock { $0.filter(\.isError).flatMap { $0.text.split(separator: "\n").map(String.init) } }
    }
}

/// A module without its declarations: it installs by priority alone.
struct Undeclared: ServiceModule {
    let module: any ServiceModule
    var name: String { module.name }
    var priority: Int { module.priority }
    func register(in hive: ServiceHive) throws { try module.register(in: hive) }
    func start(in hive: ServiceHive) async throws { try await module.start(in: hive) }
    func stop(in hive: ServiceHive) async { await module.stop(in: hive) }
}

/// A module whose registration needs a service nobody registers.
struct BrokenModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(StoreConfig.self) { r in
            _ = try r.resolve(PaymentService.self)
            fatalError("unreachable: PaymentService is never registered")
        }
    }
}

@Suite("The Demo", .timeLimit(.minutes(5)))
struct DemoTests {
    @Test(
        "the tour installs modules, trades, forwards, overrides, shows errors, validates, and calls the trade component"
    )
    func tour() async {
        let captured = CapturedConsole()
        let status = await DemoCommand.run(arguments: [], console: captured.console)
        #expect(status == 0)
        #expect(captured.error.isEmpty)
        let out = captured.out.map { line in
            line.trimmingCharacters(in: .whitespaces).replacing(/\.swift:\d+/, with: ".swift:N")  // registration lines
        }
        let keyLines = [
            "register  Trade   needs nothing",
            "register  Config  needs nothing",
            "register  Audit   needs StoreConfig, which Config provides",
            "start     Config",
            "ServiceHive: 20 registrations",
            "InventoryService    -            forwards to InMemoryInventory  -          Trade   "
                + "TradeModule/TradeModule.swift:N",
            "StockReader         -            forwards to InMemoryInventory  -          Trade   "
                + "TradeModule/TradeModule.swift:N",
            "quote     2 × hive-42 at $12.50 (standard) = $25.00",
            "placed    order #1: 2 × hive-42 at $12.50 (standard) = $25.00",
            "audited   order #1: 2 × hive-42 at $12.50 (standard) = $25.00, in The Hive Shop's audit log",
            "refused   only 3 of hive-42 in stock, 4 requested",
            "restocked by a broadcast event: 13 of hive-42 in stock",
            "forwarded InventoryService and StockReader are one instance, so StockReader sees the restock too: "
                + "13 of hive-42",
            "quote     2 × hive-42 at $1.00 (mock) = $2.00",
            "outside   2 × hive-42 at $12.50 (standard) = $25.00",
            "PaymentService is not registered. To fix, register it before resolving: "
                + "try hive.register(PaymentService.self) { … }",
            "7. Check, then validate the composition root",
            "check     3 registrations declare their dependencies: 0 problems",
            "OrderHistory, a singleton registered at Demo/Tour.swift:N, would hold CustomerSession by its parameter 1 "
                + "(CustomerSession), but it lives in the scope session, shorter than the singleton. The singleton "
                + "would keep one past its time. To fix, take it as ServiceHive.Provider<CustomerSession>, which "
                + "resolves it on every use, or give OrderHistory a scope no longer than session.",
            "Validated 20 registrations: 19 passed, 0 failed, 1 skipped.",
            "8. Call the trade component by name",
            "trade: order (URL), quote, track (URL, async); module Trade, at TradeModule/TradeComponent.swift:N",
            "typed     2 × hive-42 at $12.50 (standard) = $25.00",
            #"by name   [item: "honey-jar", quantity: 3, tier: "standard", total: 2697, unitPrice: 899]"#,
            "by URL    shop://trade/order?item=hive-42&quantity=2",
            #"[item: "hive-42", number: 3, quantity: 2, total: 2500]"#,
            "tracked   50% 100% → delivered",
            "trade has no command 'qoute'. Its commands: order, quote, track. Did you mean 'quote'? To fix, call one "
                + "of its commands, or declare this one in its registerComponent. (code 200)",
            "trade/quote is not reachable by URL. Reachable by URL in trade: order, track. To fix, call it from code; "
                + "or, if anyone outside the app may run it, declare it with command(\"quote\", reachableByURL: true), "
                + "and register no implementation in its place with reachableByURL: false. (code 400)",
            "trade/order reads the argument 'quantity' as Int, but the call passes \"two\" (String), which does not "
                + "convert to Int without loss. To fix, pass an Int, or text that converts to one exactly. (code 301)",
            "9. Shut down",
            "stop      Audit",
            "stop      Config",
            "stop      Trade",
            "10. Business components that update themselves",
            "11. A customer's session, dropped on signing out",
            "Next: swift run Demo graph, for TradeModule's dependency graph; swift run Demo --help, for the rest",
        ]
        var remaining = out[...]
        for line in keyLines {
            guard let index = remaining.firstIndex(of: line) else {
                Issue.record("missing, or out of order: \(line)")
                continue
            }
            remaining = remaining[(index + 1)...]
        }
        #expect(out.contains { $0.hasPrefix("Circular dependency: Ledger → Auditor → Ledger.") })
    }

    @Test("the tour's chapters 1 and 2: modules install in the order their needs give, and each contributes a check")
    func installChapter() async throws {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: [], console: captured.console) == 0)
        let out = captured.out
        let start = try #require(out.firstIndex(of: "1. Install the modules"))
        #expect(
            Array(out[start...].prefix(17)) == [
                "1. Install the modules",
                "   Each goes after the modules that provide what it needs; all register or none, then they start in "
                    + "order.",
                "   given     Audit, Trade, Config",
                "   register  Trade   needs nothing",
                "   register  Config  needs nothing",
                "   register  Audit   needs StoreConfig, which Config provides",
                "   start     Trade",
                "   start     Config",
                "   start     Audit",
                "   installed Trade, Config, Audit, and they stop in reverse",
                "   why       Audit after Config, whose StoreConfig it needs; Trade and Config in the order given",
                "2. Health checks, one contributed by each module",
                "   Each module adds its own to one collection; resolveAll returns them in the order the modules "
                    + "installed.",
                "   trade    healthy  contributed by Trade",
                "   config   healthy  contributed by Config",
                "   audit    healthy  contributed by Audit",
                "3. The registry",
            ])
    }

    @Test("without its needs, the Audit module given first starts before Config has loaded the settings, and fails")
    func auditNeedsConfig() async throws {
        let hive = ServiceHive()
        let undeclared: [any ServiceModule] = AppModules.all.map { Undeclared(module: $0) }
        let thrown = await #expect(throws: ServiceHiveError.self) { try await hive.install(undeclared) }
        guard case .moduleFailed("Audit", .start, let underlying) = thrown else {
            Issue.record("expected Audit to fail to start, got \(String(describing: thrown))")
            return
        }
        #expect(underlying is AuditModule.SettingsNotLoaded)

        let declared = ServiceHive()
        try await declared.install(AppModules.all)
        #expect(declared.installedModules == ["Trade", "Config", "Audit"])
        #expect(try declared.resolve(AuditLog.self).title == "The Hive Shop's audit log")
        await declared.shutdown()
    }

    @Test("the tour's chapter 10: badges follow the cart, one refuses, one drops out, a summary observes the count")
    func businessComponentsChapter() async throws {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: [], console: captured.console) == 0)
        let out = captured.out.map { line in
            line.trimmingCharacters(in: .whitespaces)
                .replacing(/\.swift:\d+/, with: ".swift:N")  // the lines of the registrations and of the key
        }
        let start = try #require(out.firstIndex(of: "10. Business components that update themselves"))
        let end = try #require(out.firstIndex(of: "11. A customer's session, dropped on signing out"))
        #expect(
            Array(out[start..<end]) == [
                "10. Business components that update themselves",
                "Screens attach controls to typed keys; the module that owns the business keeps them current.",
                "function  BusinessFunction<BadgeLabel, Int> (name: \"trade.cart-badge\"), singleton, module Cart, "
                    + "at TradeModule/CartModule.swift:N",
                "function  BusinessFunction<TitleBar, Theme> (name: \"demo.theme\"), singleton, module Theme, "
                    + "at Demo/Screens.swift:N",
                "Each screen shows its name, its cart badge, and its title bar's theme. A screen attaches its badge;",
                "its title bar, a BusinessControl, joins the theme's function itself.",
                "Beside them, a summary reads the count through an observed value, as a SwiftUI view would: it is drawn",
                "again when Observation says the count changed, and not otherwise.",
                "attached  home hidden light | product hidden light | search hidden light | summary 0 items, drawn 1 time",
                "+ +       home (2) light | product (2) light | search (2) light | summary 2 items, drawn 2 times",
                "+         home (3) light | product (3) light | search (2) light | summary 3 items, drawn 3 times",
                "search's delegate refused 3: its user was typing",
                "released  search: its badge drops out; 2 badges are live",
                "typed 5   home (5) light | product (5) light | summary 5 items, drawn 4 times",
                "refused   only 5 of hive-42 in stock, 6 requested",
                "dark      home (5) dark | product (5) dark | summary 5 items, drawn 4 times",
                "checkout  order #1: 5 × hive-42 at $12.50 (standard) = $62.50",
                "emptied   home hidden dark | product hidden dark | summary 0 items, drawn 5 times",
                "No function is registered for demo.holiday-theme (TitleBar, Theme). Its key is declared at "
                    + "Demo/Tour+Functions.swift:N, so a module of Demo should register it. To fix, install that "
                    + "module in the hive before attaching, or register a function: try hive.register(function: key) "
                    + "{ … }",
            ])
    }

    @Test("the tour's chapter 11: signing out rebuilds the session's services, not the singletons; a traced Lazy")
    func sessionChapter() async throws {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: [], console: captured.console) == 0)
        let out = captured.out
        let start = try #require(out.firstIndex(of: "11. A customer's session, dropped on signing out"))
        #expect(
            Array(out[start...]) == [
                "11. A customer's session, dropped on signing out",
                "   Session services are shared until the app resets the session scope; singletons stay.",
                "   sign in   customer-7, who views smoker, then honey-jar",
                "   viewed    honey-jar, smoker, the most recent first",
                "   basket    customer-7's, the same on every resolve",
                "   checkout  order #1: 2 × honey-jar at $8.99 (standard) = $17.98",
                "   trace     The basket holds a Lazy<any TradeService>, resolved at its first checkout. That resolve:",
                "             TradeService (singleton) built",
                "             ├─ PricingService (singleton) cached",
                "             └─ InventoryService (forwards to InMemoryInventory)",
                "                └─ InMemoryInventory (singleton) built",
                "   sign out  hive.resetInstances(in: .session)",
                "   rebuilt   a new session, of a guest, nothing viewed, and a new basket",
                "   sign in   customer-9, whose basket it is now: customer-9",
                "   checkout  order #2: 1 × smoker at $45.00 (standard) = $45.00",
                "   kept      the same TradeService, numbering orders on, and the same inventory: 18 of honey-jar left",
                "Next: swift run Demo graph, for TradeModule's dependency graph; swift run Demo --help, for the rest",
            ])
    }

    @Test("the tour prints the same lines every run")
    func deterministic() async {
        let first = CapturedConsole()
        let second = CapturedConsole()
        #expect(await DemoCommand.run(arguments: [], console: first.console) == 0)
        #expect(await DemoCommand.run(arguments: [], console: second.console) == 0)
        #expect(first.error.isEmpty && second.error.isEmpty)
        #expect(first.out.count > 100, "the whole tour: \(first.out.count) lines")
        #expect(first.out == second.out)
    }

    @Test("list prints the registry, then every command of every component")
    func list() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["list"], console: captured.console) == 0)
        #expect(captured.out.first == "ServiceHive: 20 registrations")
        let trade = "TradeService        premium      singleton                      -          Trade"
        let order = "ComponentCommand    trade/order  singleton                      -          Trade"
        let session = "CustomerSession     -            session                        -          Trade"
        let reader = "StockReader         -            forwards to InMemoryInventory  -          Trade"
        for row in [trade, order, session, reader] {
            #expect(captured.out.contains { $0.hasPrefix(row) }, "\(row)")
        }
        let components = Array(captured.out.drop { $0 != "Components: 1" })
        #expect(components.count == 2)
        #expect(
            components.last?.hasPrefix(
                "trade: order (URL), quote, track (URL, async); module Trade, at TradeModule/") == true)
    }

    @Test("open calls the command a URL names and prints the reply")
    func open() async {
        let captured = CapturedConsole()
        let status = await DemoCommand.run(
            arguments: ["open", "shop://trade/order?item=hive-42&quantity=2"], console: captured.console)
        #expect(status == 0)
        #expect(captured.out == [#"reply [item: "hive-42", number: 1, quantity: 2, total: 2500]"#])
        #expect(captured.error.isEmpty)
    }

    @Test(
        "open prints the error and exits 1 for a URL nothing answers, a bad argument or a refused URL",
        arguments: [
            ("shop://trade/quote?item=hive-42&quantity=2", "(code 400)"),
            ("shop://trade/order?item=hive-42&quantity=two", "(code 301)"),
            ("shop://trade/order?item=hive-99&quantity=1", "trade/order failed: there is no item hive-99. (code 500)"),
            ("shop://trade/ordr", "Did you mean 'order'?"),
            ("http://trade/order", "its scheme 'http' is not accepted; the accepted schemes are: shop."),
        ])
    func openFails(link: String, message: String) async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["open", link], console: captured.console) == 1)
        #expect(captured.error.count == 1)
        #expect(captured.error.first?.hasPrefix("error: ") == true)
        #expect(captured.error.first?.contains(message) == true, "\(captured.error)")
        #expect(captured.out.isEmpty)
    }

    @Test("graph prints TradeModule's dependency graph as Mermaid: modules, scopes, forwards, and who resolves whom")
    func graphMermaid() async throws {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["graph"], console: captured.console) == 0)
        #expect(captured.error.isEmpty)
        let out = captured.out
        #expect(out.first == "flowchart LR")
        for line in [
            #"    subgraph Cart["Cart"]"#,
            #"        CartService["CartService<br/>singleton"]"#,
            #"    subgraph Trade["Trade"]"#,
            #"        CustomerSession["CustomerSession<br/>session"]"#,
            #"        InMemoryInventory["InMemoryInventory<br/>singleton"]"#,
            #"        StockReader["StockReader<br/>forwards to InMemoryInventory"]"#,
            "    InventoryService --> InMemoryInventory",
            "    StockReader --> InMemoryInventory",
            "    TradeService --> PricingService",
            "    TradeService --> InventoryService",
            "    Basket --> CustomerSession",
            "    CartService --> StockReader",
            "    Cart -. needs .-> PricingService",
            "    Cart -. needs .-> StockReader",
            "    Cart -. needs .-> TradeService",
            "    classDef provided stroke-width:3px",
        ] {
            #expect(out.contains(line), "\(line)")
        }
        #expect(
            out.contains { $0.hasPrefix("        BusinessFunction_BadgeLabel") && $0.contains("BusinessFunction#lt;") },
            "a generic type's brackets are Mermaid entity codes")
        #expect(!out.contains { $0.contains("missing") || $0.contains("linkStyle") }, "nothing in red")
        let provided = try #require(out.first { $0.hasPrefix("    class ") && $0.hasSuffix(" provided") })
        #expect(
            provided.dropFirst("    class ".count).dropLast(" provided".count).split(separator: ",") == [
                "Basket", "Basket__arguments__String_", "CartService", "CustomerSession", "InventoryService",
                "PricingService", "PricingService__name___premium__", "StockReader", "TradeService",
                "TradeService__name___premium__",
            ], "what Trade and Cart provide, and nothing they don't, such as InMemoryInventory and the component")
    }

    @Test("graph --dot prints the same graph in Graphviz DOT")
    func graphDOT() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["graph", "--dot"], console: captured.console) == 0)
        #expect(captured.error.isEmpty)
        let out = captured.out
        #expect(out.first == "digraph ServiceHive {")
        #expect(out.last == "}")
        for line in [
            #"    subgraph "cluster_Trade" {"#,
            #"        "CustomerSession" [label="CustomerSession\nsession", penwidth=3];"#,
            #"        "InMemoryInventory" [label="InMemoryInventory\nsingleton"];"#,
            #"        "module Cart" [label="module", shape=folder];"#,
            #"    "module Cart" -> "TradeService" [style=dashed, label="needs"];"#,
            #"    "StockReader" -> "InMemoryInventory";"#,
            #"    "TradeService (name: \"premium\")" -> "PricingService (name: \"premium\")";"#,
            #"    "CartService" -> "TradeService";"#,
        ] {
            #expect(out.contains(line), "\(line)")
        }
        #expect(!out.contains { $0.contains("red") }, "nothing in red")
    }

    @Test("graph draws what is missing in red, and exits 1, for unsound modules")
    func graphUnsound() async {
        let captured = CapturedConsole()
        let status = await DemoCommand.run(
            arguments: ["graph"], graphed: [TradeModule(), BrokenModule()], console: captured.console)
        #expect(status == 1)
        #expect(captured.out.contains("    StoreConfig --> PaymentService"))
        #expect(captured.out.contains("    class PaymentService missing"))
        #expect(captured.error == ["error: the modules are unsound; the graph draws what is missing or cyclic in red"])
    }

    @Test("the Modules and Startup article's TradeModule graph is the one Demo graph prints")
    func readmeGraph() async throws {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["graph"], console: captured.console) == 0)
        let graph = captured.out.joined(separator: "\n")
        let article = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(
                path: "Sources/ServiceHive/ServiceHive.docc/Articles/ModulesAndStartup.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let fix =
            "To fix, paste the output of `swift run Demo graph` into ModulesAndStartup.md as a ```mermaid block "
            + "between <!-- tradegraph:start --> and <!-- tradegraph:end -->."
        guard let start = text.firstRange(of: "<!-- tradegraph:start -->"),
            let end = text[start.upperBound...].firstRange(of: "<!-- tradegraph:end -->")
        else {
            Issue.record(
                "ModulesAndStartup.md has no <!-- tradegraph:start --> … <!-- tradegraph:end --> markers. \(fix)")
            return
        }
        let between = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        guard between.hasPrefix("```mermaid\n"), between.hasSuffix("\n```") else {
            Issue.record("ModulesAndStartup.md's TradeModule graph is not one ```mermaid block. \(fix)")
            return
        }
        let block = between.dropFirst("```mermaid\n".count).dropLast("\n```".count)
        #expect(
            String(block) == graph, "ModulesAndStartup.md's TradeModule graph is not what Demo graph prints. \(fix)")
    }

    @Test("validate exits 0 for the sound composition root")
    func validateSound() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["validate"], console: captured.console) == 0)
        #expect(captured.out.first == "Validated 20 registrations: 19 passed, 0 failed, 1 skipped.")
    }

    @Test("validate exits non-zero with the report for an unsound composition root")
    func validateUnsound() async {
        let captured = CapturedConsole()
        let status = await DemoCommand.run(
            arguments: ["validate"], modules: [TradeModule(), BrokenModule()], console: captured.console)
        #expect(status == 1)
        #expect(captured.error.first == "Validated 16 registrations: 14 passed, 1 failed, 1 skipped.")
        #expect(captured.error.contains { $0.hasPrefix("FAILED StoreConfig, transient, module BrokenModule") })
    }

    @Test("order places an order, and a refused order exits 1 with the reason")
    func order() async {
        let placed = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["order", "hive-42", "2"], console: placed.console) == 0)
        #expect(placed.out == ["placed order #1: 2 × hive-42 at $12.50 (standard) = $25.00"])

        let refused = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["order", "smoker", "2"], console: refused.console) == 1)
        #expect(refused.error == ["refused: only 1 of smoker in stock, 2 requested"])
    }

    @Test("check exits 0 with the summary for the sound composition root, building nothing")
    func checkSound() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["check"], console: captured.console) == 0)
        #expect(captured.out == ["3 checked, 9 unchecked (closures without dependsOn:)"])
        #expect(captured.error.isEmpty)
    }

    @Test("graph --declared draws the links that registrations declare, without validating")
    func declaredGraph() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["graph", "--declared"], console: captured.console) == 0)
        let lines = captured.out.joined(separator: "\n").split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for link in [
            "TradeService --> PricingService", "TradeService --> InventoryService", "Basket --> CustomerSession",
            "HealthCheck__contribution__cart__ --> CartService",
        ] {
            #expect(lines.contains(link), "\(link)")
        }
        #expect(!lines.contains { $0.hasPrefix("CartService -->") }, "a closure without dependsOn: has no links")
    }

    @Test("--help explains every command")
    func help() async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: ["--help"], console: captured.console) == 0)
        for command in [
            "list", "validate", "check", "graph [--dot] [--declared]", "order ITEM QUANTITY", "open URL", "--help",
        ] {
            #expect(captured.out.contains { $0.contains(command) }, "\(command)")
        }
    }

    @Test(
        "bad commands and arguments exit 64 with a one-line reason and the usage",
        arguments: [
            (["frobnicate"], "error: unknown command 'frobnicate'"),
            (["order", "hive-42"], "error: order needs an ITEM and a QUANTITY"),
            (["order", "hive-42", "two"], "error: QUANTITY must be a whole number, not 'two'"),
            (["list", "extra"], "error: list takes no arguments"),
            (["open"], "error: open needs a URL"),
            (["open", "a", "b"], "error: open needs a URL"),
            (["open", ""], "error: '' is not a URL"),
            (["graph", "--svg"], "error: graph takes only --dot and --declared"),
            (["graph", "--dot", "--dot"], "error: graph takes only --dot and --declared"),
        ])
    func badUsage(arguments: [String], reason: String) async {
        let captured = CapturedConsole()
        #expect(await DemoCommand.run(arguments: arguments, console: captured.console) == 64)
        #expect(captured.error.first == reason)
        #expect(captured.error.dropFirst().first == "usage: Demo [command]")
        #expect(captured.out.isEmpty)
    }
}
