import Foundation
import ServiceHive
import ServiceHiveComponents
import TradeModule

/// The Demo's command line: the tour, or one of its subcommands.
enum DemoCommand {
    static let usage = """
        usage: Demo [command]

          (no command)          take the narrated tour
          list                  print the registry and the components' commands
          validate              validate the composition root; exit 1 with the report if it is unsound
          check                 check the dependencies registrations declare, building nothing; exit 1 on a problem
          graph [--dot] [--declared]
                                print the dependency graph of TradeModule's modules, Trade and Cart, as Mermaid;
                                with --dot, as Graphviz DOT; with --declared, only the declared links, unbuilt
          order ITEM QUANTITY   place an order, for example: order hive-42 2
          open URL              call the command a URL names, for example:
                                open 'shop://trade/order?item=hive-42&quantity=2'
          --help                show this help
        """

    /// The exit status for bad usage, as `sysexits.h` has it.
    static let usageError: Int32 = 64

    /// Runs the command in `arguments` and returns the exit status.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program's name.
    ///   - modules: The app's modules; the tests pass others.
    ///   - graphed: The modules whose dependency graph `graph` prints; the tests pass others.
    ///   - console: Where to write.
    static func run(
        arguments: [String],
        modules: [any ServiceModule] = AppModules.all,
        graphed: [any ServiceModule] = AppModules.trade,
        console: Console
    ) async -> Int32 {
        switch arguments.first {
        case nil:
            return await Tour(modules: modules, console: console).run()
        case "--help", "-h", "help":
            guard arguments.count == 1 else { return usageError("--help takes no arguments", console) }
            console.out(usage)
            return 0
        case "list":
            guard arguments.count == 1 else { return usageError("list takes no arguments", console) }
            return await withInstalled(modules, console) { hive in
                console.out(hive.description)
                console.out("")
                console.out("Components: \(hive.components.count)")
                for component in hive.components { console.out("\(component)") }
                return 0
            }
        case "validate":
            guard arguments.count == 1 else { return usageError("validate takes no arguments", console) }
            return await withInstalled(modules, console) { hive in
                let report = hive.validate()
                if report.isValid {
                    console.out(report.description)
                    return 0
                }
                console.error(report.description)
                return 1
            }
        case "check":
            guard arguments.count == 1 else { return usageError("check takes no arguments", console) }
            return await withInstalled(modules, console) { hive in
                let report = hive.check()
                guard report.isClean else {
                    console.error(report.description)
                    return 1
                }
                console.out(report.description)
                return 0
            }
        case "graph":
            let options = Set(arguments.dropFirst())
            guard options.isSubset(of: ["--dot", "--declared"]), options.count == arguments.count - 1 else {
                return usageError("graph takes only --dot and --declared", console)
            }
            let dot = options.contains("--dot")
            return await withInstalled(graphed, console) { hive in
                if options.contains("--declared") {
                    let graph = hive.declaredGraph
                    console.out(dot ? graph.dot : graph.mermaid)
                    return 0
                }
                let report = hive.validate()
                console.out(dot ? report.graph.dot : report.graph.mermaid)
                guard report.isValid else {
                    console.error("error: the modules are unsound; the graph draws what is missing or cyclic in red")
                    return 1
                }
                return 0
            }
        case "order":
            guard arguments.count == 3 else { return usageError("order needs an ITEM and a QUANTITY", console) }
            guard let quantity = Int(arguments[2]) else {
                return usageError("QUANTITY must be a whole number, not '\(arguments[2])'", console)
            }
            return await withInstalled(modules, console) { hive in
                do {
                    let order = try hive.resolve(TradeService.self).placeOrder(itemId: arguments[1], quantity: quantity)
                    console.out("placed \(order)")
                    return 0
                } catch let error as TradeError {
                    console.error("refused: \(error)")
                    return 1
                } catch {
                    console.error("error: \(error)")
                    return 1
                }
            }
        case "open":
            guard arguments.count == 2 else { return usageError("open needs a URL", console) }
            guard let url = URL(string: arguments[1]) else {
                return usageError("'\(arguments[1])' is not a URL", console)
            }
            return await withInstalled(modules, console) { hive in
                do {
                    console.out("reply \(try await hive.open(url))")
                    return 0
                } catch {
                    console.error("error: \(error)")
                    return 1
                }
            }
        case let command?:
            return usageError("unknown command '\(command)'", console)
        }
    }

    /// Prints a one-line reason and the usage, and returns the usage exit status.
    private static func usageError(_ reason: String, _ console: Console) -> Int32 {
        console.error("error: \(reason)")
        console.error(usage)
        return usageError
    }

    /// Installs `modules` in a new hive, runs `body`, and shuts the modules down.
    private static func withInstalled(
        _ modules: [any ServiceModule],
        _ console: Console,
        _ body: (ServiceHive) async -> Int32
    ) async -> Int32 {
        let hive = ServiceHive()
        do {
            try await hive.install(modules)
        } catch {
            console.error("error: \(error)")
            return 1
        }
        let status = await body(hive)
        await hive.shutdown()
        return status
    }
}
