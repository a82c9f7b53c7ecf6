import Foundation
import ServiceHive
import ServiceHiveComponents
import Testing

/// The full text and the code of every error of a component call. The text is the product, so it is asserted whole.
@Suite(
    "Components: every error names what went wrong, lists what is there, and carries its code", .timeLimit(.minutes(5)))
struct ComponentErrorTests {
    let hive: ServiceHive

    init() throws {
        hive = try tradeComponentHive()
        try hive.registerComponent("account") { $0.command("login") { _ in [:] } }
    }

    @Test("100: no component, with the registered ones and a suggestion")
    func componentNotFound() throws {
        let thrown = error { _ = try hive.call("trdae", "quote") }
        #expect(thrown?.code == 100)
        #expect(
            thrown?.description
                == "No component named 'trdae'. Registered components: account, trade. Did you mean 'trade'? To fix, "
                + "call a registered component, or register this one: try hive.registerComponent(\"trdae\") { … } "
                + "(code 100)")
        guard case .componentNotFound("trdae", let available) = thrown else {
            Issue.record("expected componentNotFound, got \(String(describing: thrown))")
            return
        }
        #expect(available == ["account", "trade"])
    }

    @Test("100: no component in a hive that has none, and no suggestion when nothing is close")
    func componentNotFoundEmpty() throws {
        #expect(
            error { _ = try ServiceHive().call("trade", "quote") }?.description
                == "No component named 'trade'. No components are registered. To fix, call a registered component, "
                + "or register this one: try hive.registerComponent(\"trade\") { … } (code 100)")
        #expect(
            error { _ = try hive.call("inventory", "count") }?.description
                == "No component named 'inventory'. Registered components: account, trade. To fix, call a "
                + "registered component, or register this one: try hive.registerComponent(\"inventory\") { … } "
                + "(code 100)")
    }

    @Test("200: no command, with the component's commands and a suggestion")
    func commandNotFound() throws {
        let thrown = error { _ = try hive.call("trade", "qoute") }
        #expect(thrown?.code == 200)
        #expect(
            thrown?.description
                == "trade has no command 'qoute'. Its commands: order, quote, track. Did you mean 'quote'? To fix, "
                + "call one of its commands, or declare this one in its registerComponent. (code 200)")
        guard case .commandNotFound("trade", "qoute", let available) = thrown else {
            Issue.record("expected commandNotFound, got \(String(describing: thrown))")
            return
        }
        #expect(available == ["order", "quote", "track"])
    }

    @Test("201: a synchronous call to an async command")
    func commandIsAsync() throws {
        #expect(
            error { _ = try hive.call("trade", "track") }?.description
                == "trade/track is async, so a synchronous call cannot run it. To fix, call it with try await, or "
                + "with the form that takes a completion handler. (code 201)")
    }

    @Test("300: a missing argument, with the arguments the call does pass")
    func missingArgument() throws {
        let thrown = error { _ = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantty": 2]) }
        #expect(
            thrown?.description
                == "trade/quote needs the argument 'quantity', which the call does not pass. It passes: item, "
                + "quantty. Did you mean 'quantty'? To fix, pass 'quantity' in the arguments. (code 300)")
        #expect(
            error { _ = try hive.call("trade", "quote") }?.description
                == "trade/quote needs the argument 'item', which the call does not pass. It passes no arguments. To "
                + "fix, pass 'item' in the arguments. (code 300)")
    }

    @Test("301: an argument of the wrong type, with the value passed")
    func argumentTypeMismatch() throws {
        let thrown = error { _ = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": "two"]) }
        #expect(
            thrown?.description
                == "trade/quote reads the argument 'quantity' as Int, but the call passes \"two\" (String), which "
                + "does not convert to Int without loss. To fix, pass an Int, or text that converts to one exactly. "
                + "(code 301)")
        guard case .argumentTypeMismatch("trade", "quote", "quantity", "Int", let found) = thrown else {
            Issue.record("expected argumentTypeMismatch, got \(String(describing: thrown))")
            return
        }
        #expect(found == #""two" (String)"#)
    }

    @Test("302 and 303: a reply's missing value, and a value of the wrong type")
    func replyErrors() throws {
        let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1])
        let missing = error { _ = try reply.value("totl", as: Int.self) }
        #expect(
            missing?.description
                == "The reply of trade/quote has no value 'totl'. Its values: item, quantity, total. Did you mean "
                + "'total'? To fix, read one of its values. (code 302)")
        let mismatch = error { _ = try reply.value("total", as: String.self) }
        #expect(
            mismatch?.description
                == "The reply of trade/quote has 'total' as 1250 (Int), which does not convert to String without "
                + "loss. To fix, read it as the type the command replies with. (code 303)")
    }

    @Test("304: a typed value that is not named values")
    func conversionFailed() throws {
        let count = ServiceHive.Command<Int, TradeQuoteReply>(component: "trade", name: "quote")
        let thrown = error { _ = try hive.call(count, 2) }
        #expect(
            thrown?.description
                == "Converting Int for trade/quote failed: Int encodes as a single value or a list, but a command's "
                + "arguments and reply are named values. To fix, use a Codable type whose values are named, such as "
                + "a struct, and whose Codable code succeeds. (code 304)")
    }

    @Test("400: a command that is not reachable by URL, with those that are")
    func notReachableByURL() async throws {
        let thrown = await asyncError { _ = try await hive.open(url("shop://trade/quote?item=hive-42&quantity=2")!) }
        #expect(
            thrown?.description
                == "trade/quote is not reachable by URL. Reachable by URL in trade: order. To fix, call it from code; "
                + "or, if anyone outside the app may run it, declare it with command(\"quote\", reachableByURL: "
                + "true), and register no implementation in its place with reachableByURL: false. (code 400)")
        let none = await asyncError { _ = try await hive.open(url("shop://account/login")!) }
        #expect(
            none?.description
                == "account/login is not reachable by URL. No command of account is reachable by URL. To fix, call "
                + "it from code; or, if anyone outside the app may run it, declare it with command(\"login\", "
                + "reachableByURL: true), and register no implementation in its place with reachableByURL: false. "
                + "(code 400)")
    }

    @Test(
        "401: every URL problem, with the URL and how to fix it",
        arguments: [
            (
                "shop:trade/order",
                "The URL shop:trade/order was refused: it does not start with scheme://component. To fix, open a URL "
                    + "of the form scheme://component/command?key=value. (code 401)"
            ),
            (
                "shop://trade",
                "The URL shop://trade was refused: it names no command. To fix, open a URL of the form "
                    + "scheme://component/command?key=value. (code 401)"
            ),
            (
                "shop://trade/order/x",
                "The URL shop://trade/order/x was refused: its path /order/x has more than one segment. To fix, open "
                    + "a URL of the form scheme://component/command?key=value. (code 401)"
            ),
            (
                "shop://trade/%2E%2E",
                "The URL shop://trade/%2E%2E was refused: '..' is not a valid component or command name. To fix, "
                    + "name a registered component and command; names are letters, digits, '-', '_' and '.'. "
                    + "(code 401)"
            ),
            (
                "shop://trade/order?item=1&item=2",
                "The URL shop://trade/order?item=1&item=2 was refused: it repeats the query key 'item'. To fix, pass "
                    + "each key once. (code 401)"
            ),
            (
                "shop://trade/order?=1",
                "The URL shop://trade/order?=1 was refused: a query item has an empty key. To fix, give every query "
                    + "item a key, and remove stray '&'. (code 401)"
            ),
            (
                "shop://trade/order?item=%C3",
                "The URL shop://trade/order?item=%C3 was refused: '%C3' has invalid percent-encoding. To fix, "
                    + "percent-encode the URL's text as UTF-8, with two hexadecimal digits after each '%'. (code 401)"
            ),
        ])
    func invalidURL(text: String, message: String) async throws {
        let thrown = await asyncError { _ = try await hive.open(url(text)!) }
        #expect(thrown?.code == 401)
        #expect(thrown?.description == message)
    }

    @Test("401: a URL that is too long is refused, and printed shortened")
    func tooLong() async throws {
        let text = "shop://trade/order?item=" + String(repeating: "x", count: 3_000)
        let thrown = await asyncError { _ = try await hive.open(url(text)!) }
        let shortened = "shop://trade/order?item=" + String(repeating: "x", count: 55) + "…"  // the first 79 characters
        #expect(
            thrown?.description
                == "The URL \(shortened) was refused: it is 3024 bytes long, and the limit is 2048. To fix, pass large "
                + "values some other way than in a URL. (code 401)")
    }

    @Test("401: a scheme the hive does not accept")
    func schemeNotAccepted() async throws {
        try hive.acceptURLSchemes(["shop", "hive"])
        let thrown = await asyncError { _ = try await hive.open(url("http://trade/order")!) }
        #expect(
            thrown?.description
                == "The URL http://trade/order was refused: its scheme 'http' is not accepted; the accepted schemes "
                + "are: shop, hive. To fix, open it with an accepted scheme, or add this one to hive.acceptURLSchemes. "
                + "(code 401)")
    }

    @Test("500: the command's own error")
    func commandFailed() throws {
        #expect(
            error { _ = try hive.call("trade", "quote", arguments: ["item": "smoker", "quantity": 1]) }?.description
                == "trade/quote failed: there is no item smoker. (code 500)")
    }

    @Test("600: a name that is not valid")
    func invalidComponentName() throws {
        #expect(
            error { try hive.registerComponent("a/b") { _ in } }?.description
                == "'a/b' is not a valid component or command name. To fix, use 1 to 64 letters, digits, '-', '_' or "
                + "'.', other than '.' and '..'. (code 600)")
        #expect(
            error { try hive.registerComponent("bad\nname") { _ in } }?.description.hasPrefix("'bad\\nname' is not")
                == true, "control characters print escaped, on one line")
    }

    @Test("every case has its own stable code, from 100, above ServiceHiveError's, and its description ends with it")
    func codes() {
        let errors: [(ComponentError, Int)] = [
            (.componentNotFound("c", available: []), 100),
            (.commandNotFound(component: "c", command: "x", available: []), 200),
            (.commandIsAsync(component: "c", command: "x"), 201),
            (.missingArgument(component: "c", command: "x", argument: "a", passed: []), 300),
            (.argumentTypeMismatch(component: "c", command: "x", argument: "a", expected: "Int", found: "s"), 301),
            (.missingReplyValue(component: "c", command: "x", value: "a", present: []), 302),
            (.replyValueTypeMismatch(component: "c", command: "x", value: "a", expected: "Int", found: "s"), 303),
            (.conversionFailed(component: "c", command: "x", type: "T", underlying: DatabaseOffline()), 304),
            (.notReachableByURL(component: "c", command: "x", reachable: []), 400),
            (.invalidURL("u", problem: .emptyKey), 401),
            (.commandFailed(component: "c", command: "x", underlying: DatabaseOffline()), 500),
            (.invalidComponentName("a/b"), 600),
        ]
        for (error, code) in errors {
            #expect(error.code == code, "\(error)")
            #expect(error.description.hasSuffix(" (code \(code))"), "\(error)")
        }
        #expect(Set(errors.map(\.1)).count == errors.count, "no two cases share a code")
    }
}
