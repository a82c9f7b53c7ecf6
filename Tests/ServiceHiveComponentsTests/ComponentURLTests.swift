import Foundation
import ServiceHive
import Support
import Testing

@testable import ServiceHiveComponents

@Suite("Components: URL entry treats every URL as hostile", .timeLimit(.minutes(5)))
struct ComponentURLTests {
    // MARK: - Opening

    @Test("a URL calls the command it names, with its query as text arguments that convert without loss")
    func open() async throws {
        let orders = Locked(0)
        let hive = try tradeComponentHive(orders: orders)
        let reply = try await hive.open(url("shop://trade/order?item=hive-42&quantity=2")!)
        #expect(try reply.value("total", as: Int.self) == 2_500)
        #expect(try reply.value("number", as: Int.self) == 1)
        #expect(orders.current == 1)
    }

    @Test("the handler sees every URL value as a String, and the URL it came from")
    func valuesAreText() async throws {
        let hive = ServiceHive()
        let seen = Locked<[String: String]>([:])
        let source = Locked<URL?>(nil)
        try hive.registerComponent("echo") { component in
            component.command("all", reachableByURL: true) { call in
                seen.withLock { $0 = call.arguments.compactMapValues { $0 as? String } }
                source.withLock { $0 = call.url }
                return ["count": call.arguments.count, "flag": try call.argument("flag", as: Bool.self)]
            }
        }
        let link = url("app://echo/all?flag=true&n=2&empty=&bare")!
        let reply = try await hive.open(link)
        #expect(seen.current == ["flag": "true", "n": "2", "empty": "", "bare": ""])
        #expect(try reply.value("count", as: Int.self) == 4)
        #expect(try reply.value("flag", as: Bool.self))
        #expect(source.current == link)
    }

    @Test("percent-decoding is correct: escapes, UTF-8, a literal plus, and encoded names")
    func percentDecoding() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("text", reachableByURL: true) { call in
                ["text": try call.argument("text", as: String.self)]
            }
        }
        let cases = [
            ("shop://echo/text?text=50%25%20off", "50% off"),
            ("shop://echo/text?text=caf%C3%A9", "café"),
            ("shop://echo/text?text=a+b", "a+b"),
            ("shop://echo/text?text=a%2Bb%26c%3Dd", "a+b&c=d"),
            ("shop://ech%6F/t%65xt?t%65xt=key", "key"),
            ("shop://echo/text?text=x%3Dy=z", "x=y=z"),
            ("shop://echo/text?text=%F0%9F%90%9D", "🐝"),
        ]
        for (text, expected) in cases {
            let reply = try await hive.open(url(text)!)
            #expect(try reply.value("text", as: String.self) == expected, "\(text)")
        }
    }

    @Test("the fragment is ignored")
    func fragment() async throws {
        let hive = try tradeComponentHive()
        let reply = try await hive.open(url("shop://trade/order?item=hive-42&quantity=1#section=2")!)
        #expect(try reply.value("quantity", as: Int.self) == 1)
    }

    @Test("component and command names in a URL are compared exactly, as in a call from code; the scheme is not")
    func namesAreCaseSensitive() async throws {
        let hive = try tradeComponentHive()
        let component = await asyncError { _ = try await hive.open(url("shop://Trade/order?item=hive-42&quantity=1")!) }
        guard case .componentNotFound("Trade", ["trade"]) = component else {
            Issue.record("expected componentNotFound, got \(String(describing: component))")
            return
        }
        #expect(component?.description.contains("Did you mean 'trade'?") == true)
        let command = await asyncError { _ = try await hive.open(url("shop://trade/Order?item=hive-42&quantity=1")!) }
        guard case .commandNotFound("trade", "Order", ["order", "quote", "track"]) = command else {
            Issue.record("expected commandNotFound, got \(String(describing: command))")
            return
        }
        #expect(!hive.canOpen(url("shop://Trade/order")!))
        #expect(!hive.canOpen(url("shop://trade/ORDER")!))
        let reply = try await hive.open(url("SHOP://trade/order?item=hive-42&quantity=1")!)
        #expect(try reply.value("quantity", as: Int.self) == 1)
    }

    @Test("only commands declared reachable by URL answer, and typed reads of bad text fail with the argument named")
    func onlyReachable() async throws {
        let hive = try tradeComponentHive()
        #expect(
            await asyncError { _ = try await hive.open(url("shop://trade/quote?item=hive-42&quantity=2")!) }?.code
                == 400)
        let bad = await asyncError { _ = try await hive.open(url("shop://trade/order?item=hive-42&quantity=two")!) }
        guard case .argumentTypeMismatch("trade", "order", "quantity", "Int", #""two" (String)"#) = bad else {
            Issue.record("expected argumentTypeMismatch, got \(String(describing: bad))")
            return
        }
    }

    @Test(
        "hostile URLs are refused before any lookup, each with its problem",
        arguments: [
            ("shop:trade/order", ComponentError.URLProblem.notAComponentURL),
            ("shop:///order", .notAComponentURL),
            ("//trade/order", .notAComponentURL),
            ("shop://trade", .missingCommand),
            ("shop://trade/", .missingCommand),
            ("shop://trade?item=1", .missingCommand),
            ("shop://trade/order/", .extraPathSegments("/order/")),
            ("shop://trade/../order", .extraPathSegments("/../order")),
            ("shop://trade/order/..%2F..%2Fetc", .extraPathSegments("/order/..%2F..%2Fetc")),
            ("shop://trade/%2E%2E", .invalidName("..")),
            ("shop://trade/or%2Fder", .invalidName("or/der")),
            ("shop://tr%2Fade/order", .invalidName("tr/ade")),
            ("shop://user@trade/order", .invalidName("user@trade")),
            ("shop://trade:80/order", .invalidName("trade:80")),
            ("shop://trade/ord%20er", .invalidName("ord er")),
            ("shop://trade/order?item=1&item=2", .repeatedKey("item")),
            ("shop://trade/order?it%65m=1&item=2", .repeatedKey("item")),
            ("shop://trade/order?=1", .emptyKey),
            ("shop://trade/order?item=1&&quantity=2", .emptyKey),
            ("shop://trade/order?item=1&", .emptyKey),
            ("shop://trade/order?item=%C3%28", .invalidPercentEncoding("%C3%28")),
            ("shop://trade/order?item=%FF", .invalidPercentEncoding("%FF")),
        ])
    func hostile(text: String, problem: ComponentError.URLProblem) async throws {
        let calls = Locked(0)
        let hive = try tradeComponentHive(orders: calls)
        let thrown = await asyncError { _ = try await hive.open(url(text)!) }
        guard case .invalidURL(_, let found) = thrown else {
            Issue.record("expected invalidURL, got \(String(describing: thrown))")
            return
        }
        #expect(found == problem)
        #expect(!hive.canOpen(url(text)!))
        #expect(calls.current == 0)
    }

    @Test("the parser refuses what Foundation would otherwise repair: bad escapes and bytes")
    func parserOnItsOwn() {
        let cases: [(String, ComponentError.URLProblem)] = [
            ("shop://trade/order?item=%ZZ", .invalidPercentEncoding("%ZZ")),
            ("shop://trade/order?item=%4", .invalidPercentEncoding("%4")),
            ("shop://trade/order?item=%", .invalidPercentEncoding("%")),
            ("shop://trade/ord er", .invalidName("ord er")),
            ("shop://trade/ordér", .invalidName("ordér")),
            ("", .notAComponentURL),
            ("1shop://trade/order", .notAComponentURL),
        ]
        for (text, problem) in cases {
            do {
                _ = try ComponentURL(parsing: text)
                Issue.record("\(text) was accepted")
            } catch {
                guard case .invalidURL(_, let found) = error else {
                    Issue.record("\(text): expected invalidURL, got \(error)")
                    continue
                }
                #expect(found == problem, "\(text)")
            }
        }
        let control = try? ComponentURL(parsing: "shop://trade/order?a=1\u{0}")
        #expect(control?.arguments["a"] as? String == "1\u{0}", "a value may hold any text; the command judges it")
    }

    @Test("a URL of 2,048 bytes opens, and one of 2,049 is refused as too long")
    func length() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { $0.command("text", reachableByURL: true) { _ in ["ok": true] } }
        let prefix = "shop://echo/text?text="
        let longest = prefix + String(repeating: "x", count: ServiceHive.maximumURLLength - prefix.count)
        #expect(try await hive.open(url(longest)!).value("ok", as: Bool.self))
        let thrown = await asyncError { _ = try await hive.open(url(longest + "x")!) }
        guard case .invalidURL(_, .tooLong(2_049, 2_048)) = thrown else {
            Issue.record("expected tooLong, got \(String(describing: thrown))")
            return
        }
    }

    // MARK: - Schemes, canOpen, fallback

    @Test("the scheme is ignored until the hive accepts a list; then only those, in any case, open")
    func schemes() async throws {
        let hive = try tradeComponentHive()
        #expect(hive.canOpen(url("anything://trade/order?item=hive-42&quantity=1")!))
        try hive.acceptURLSchemes(["shop"])
        #expect(hive.canOpen(url("SHOP://trade/order")!))
        #expect(!hive.canOpen(url("anything://trade/order")!))
        let thrown = await asyncError { _ = try await hive.open(url("http://trade/order?item=hive-42&quantity=1")!) }
        #expect(
            thrown.map { if case .invalidURL(_, .schemeNotAccepted("http", ["shop"])) = $0 { true } else { false } }
                == true)
        #expect(error(ServiceHiveError.self) { try hive.acceptURLSchemes(["app"]) }?.code == 2, "one list per hive")

        let child = ServiceHive(parent: hive)
        #expect(!child.canOpen(url("app://trade/order")!), "a child hive inherits the list")
        try child.acceptURLSchemes(["app"])
        #expect(child.canOpen(url("app://trade/order")!))
    }

    @Test("canOpen answers without calling anything, and ignores the fallback")
    func canOpen() throws {
        let calls = Locked(0)
        let hive = try tradeComponentHive(orders: calls)
        try hive.registerComponentFallback { _, _ in
            calls.increment()
            return [:]
        }
        #expect(hive.canOpen(url("shop://trade/order?item=hive-42&quantity=2")!))
        #expect(hive.canOpen(url("shop://trade/order?quantity=two")!), "arguments are the command's to check")
        #expect(!hive.canOpen(url("shop://trade/quote")!))
        #expect(!hive.canOpen(url("shop://trade/nothing")!))
        #expect(!hive.canOpen(url("shop://nothing/order")!))
        #expect(!hive.canOpen(url("shop://trade/order/x")!))
        #expect(calls.current == 0)
    }

    @Test("a URL to something that does not exist goes to the fallback, which sees the URL")
    func fallback() async throws {
        let hive = try tradeComponentHive()
        let seen = Locked<[String]>([])
        try hive.registerComponentFallback { call, error in
            seen.withLock { $0.append("\(call.url?.absoluteString ?? "-") \(error.code)") }
            return ["screen": "not-found"]
        }
        let reply = try await hive.open(url("shop://promo/spring?code=bee")!)
        #expect(try reply.value("screen", as: String.self) == "not-found")
        #expect(seen.current == ["shop://promo/spring?code=bee 100"])
        let unreachable = await asyncError { _ = try await hive.open(url("shop://trade/quote")!) }
        #expect(unreachable?.code == 400, "a command that exists but is not reachable is refused, not handed over")
    }

    // MARK: - Fuzzing

    /// A fixed seed keeps CI repeatable; try others with `SERVICEHIVE_URL_FUZZ_SEED=42 swift test --filter URL`.
    static let seed = UInt64(ProcessInfo.processInfo.environment["SERVICEHIVE_URL_FUZZ_SEED"] ?? "") ?? 0x5EED_CAFE

    /// The valid URLs that the fuzz mutates.
    static let fuzzSamples = [
        "shop://trade/order?item=hive-42&quantity=2", "shop://echo/text?text=caf%C3%A9&n=3",
        "shop://trade/quote?item=honey-jar&quantity=1", "app://echo/text?text=%F0%9F%90%9D#x",
    ]

    /// The codes a URL may fail with: nothing there, a bad argument, not reachable, refused, or the command's own.
    static let urlCodes: Set<Int> = [100, 200, 300, 301, 400, 401, 500]

    @Test("fuzz: random bytes and mutated URLs never trap, and every failure is a ComponentError")
    func fuzz() async throws {
        let hive = try tradeComponentHive()
        try hive.registerComponent("echo") { component in
            component.command("text", reachableByURL: true) { call in
                ["text": try call.argument("text", as: String.self), "n": try call.argument("n", as: Int?.self) ?? 0]
            }
        }
        var fuzzer = Fuzzer(seed: Self.seed, samples: Self.fuzzSamples)
        var failures: [String] = []
        var opened = 0
        for _ in 0..<4_000 {
            let text = fuzzer.next()
            if let problem = Self.checkParser(text) { failures.append(problem) }
            guard let link = URL(string: text) else { continue }
            let openable = hive.canOpen(link)
            do {
                _ = try await hive.open(link)
                opened += 1
                if !openable { failures.append("opened, but canOpen said no: \(text)") }
            } catch let error as ComponentError {
                if !Self.urlCodes.contains(error.code) { failures.append("\(error.code) for \(text): \(error)") }
                if openable, [100, 200, 400, 401].contains(error.code) {
                    failures.append("canOpen said yes, but \(error.code): \(text)")
                }
            } catch {
                failures.append("not a ComponentError for \(text): \(error)")
            }
        }
        #expect(failures.isEmpty, "seed \(Self.seed): \(failures.prefix(5))")
        #expect(opened > 0, "seed \(Self.seed): some mutated URLs still open")
    }

    /// A problem with the parser on `text` itself, without Foundation: it must throw only `invalidURL`, and what it
    /// accepts must have valid names.
    static func checkParser(_ text: String) -> String? {
        do {
            let parsed = try ComponentURL(parsing: text)
            guard ComponentNames.isValid(parsed.component), ComponentNames.isValid(parsed.command) else {
                return "the parser accepted names it should not: \(text)"
            }
        } catch {
            guard case .invalidURL = error else { return "the parser threw \(error) for \(text)" }
        }
        return nil
    }
}
