import Benchmark
import Foundation
import ServiceHive
import ServiceHiveComponents

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

// Issue 12's components: a call by name of a cached component's synchronous command, the same call through a typed
// `Command`, and `open(_:)` of a typical URL. The component `desk` is registered with a `.singleton` object, a
// `QuoteDesk`, already built; its commands read `item` and `quantity` and reply with the quote's `total`:
//
// - `direct` calls the desk itself, and builds the same reply (or, typed, the same output);
// - the `floor` is what the issue names: a pthread mutex, as in `Floor.swift`, around
//   `[String: [String: handler]]`, and a handler that does the same work on the same desk.

func componentScenarios() {
    // MARK: 22 call a command by name

    do {
        let scenario = Scenario("22 call a cached component's command by name")
        scenario.measure(.direct) { benchmark in
            let desk = DeskCalls.desk
            let arguments = DeskCalls.arguments
            repeatedly(benchmark) { () -> [String: any Sendable] in
                ["total": desk.quote(item: arguments["item"] as! String, quantity: arguments["quantity"] as! Int)]
            }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.components
            let arguments = DeskCalls.arguments
            repeatedly(benchmark) { try! hive.call("desk", "quote", arguments: arguments) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = DeskCalls.floor
            let arguments = DeskCalls.arguments
            repeatedly(benchmark) { try! floor.call("desk", "quote", arguments: arguments) }
        }
    }

    // MARK: 23 call a command through its typed descriptor

    // The same command, called with a `DeskQuote` and answered as a `DeskTotal`: the input is converted to the
    // arguments and the reply to the output. The floor writes the conversion by hand.
    do {
        let scenario = Scenario("23 call the same command through a typed Command")
        scenario.measure(.direct) { benchmark in
            let desk = DeskCalls.desk
            let input = DeskCalls.input
            repeatedly(benchmark) { () -> DeskTotal in
                // `identity` keeps the compiler from computing the total once for the whole loop.
                let input = identity(input)
                return DeskTotal(total: desk.quote(item: input.item, quantity: input.quantity))
            }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.components
            let input = DeskCalls.input
            repeatedly(benchmark) { try! hive.call(.deskQuote, input) }
        }
        scenario.measure(.floor) { benchmark in
            let floor = DeskCalls.floor
            let input = DeskCalls.input
            repeatedly(benchmark) { () -> DeskTotal in
                let reply = try! floor.call(
                    "desk", "quote", arguments: ["item": input.item, "quantity": input.quantity])
                return DeskTotal(total: reply["total"] as! Int)
            }
        }
    }

    // MARK: 24 open a URL

    // `open(_:)` parses the URL, checks it, and calls the command reachable by URL, whose arguments arrive as text:
    // `quantity` is read as an `Int` from "2". The `URL` is made once.
    do {
        let scenario = Scenario("24 open(_:) of a typical URL")
        scenario.measure(.serviceHive) { benchmark async in
            let hive = Hives.components
            let url = URL(string: "shop://desk/order?item=hive-42&quantity=2")!
            _ = try! await hive.open(url)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try! await hive.open(url)) }
            benchmark.stopMeasurement()
        }
    }
}

extension Hives {
    /// The `desk` component, its object built by a first call.
    static let components: ServiceHive = {
        let hive = ServiceHive()
        try! hive.registerComponent("desk", scope: .singleton) { _ in
            QuoteDesk()
        } commands: { component in
            component.command("quote") { desk, call in
                ["total": desk.quote(item: try call.argument("item"), quantity: try call.argument("quantity"))]
            }
            component.command("order", reachableByURL: true) { desk, call in
                ["total": desk.quote(item: try call.argument("item"), quantity: try call.argument("quantity"))]
            }
        }
        _ = try! hive.call("desk", "quote", arguments: DeskCalls.arguments)
        return hive
    }()
}

/// What the component scenarios call with, and the floor they call.
enum DeskCalls {
    static let desk = QuoteDesk()
    static let arguments: [String: any Sendable] = ["item": "hive-42", "quantity": 2]
    static let input = DeskQuote(item: "hive-42", quantity: 2)

    /// The floor, with the `desk` component's `quote` command.
    static let floor: ComponentFloor = {
        let floor = ComponentFloor()
        let desk = DeskCalls.desk
        floor.register("desk", "quote") { arguments in
            ["total": desk.quote(item: arguments["item"] as! String, quantity: arguments["quantity"] as! Int)]
        }
        return floor
    }()
}

extension ServiceHive.Command where Input == DeskQuote, Output == DeskTotal {
    /// `desk/quote`.
    static var deskQuote: Self { .init(component: "desk", name: "quote") }
}
