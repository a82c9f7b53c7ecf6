import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

// The code of "Calling Components by Name" and of the README's "Components called by name", compiled and run here.
// `DocumentationSnippetTests` checks that the documents and these regions stay the same.

// snippet: components-typed-declare
struct QuoteRequest: Codable, Sendable {
    var item: String
    var quantity: Int
}

struct QuoteReply: Codable, Sendable {
    var total: Int
}

extension ServiceHive.Command where Input == QuoteRequest, Output == QuoteReply {
    static var tradeQuote: Self { .init(component: "trade", name: "quote") }
}
// end-snippet

/// A hive with `TradeService` and the article's `trade` component.
func articleHive() throws -> ServiceHive {
    // snippet: components-register
    let hive = ServiceHive()
    try hive.register(TradeService.self) { LiveTradeService() }

    try hive.registerComponent("trade") { component in
        component.command("quote") { call in
            let item: String = try call.argument("item")
            let quantity = try call.argument("quantity", as: Int.self)
            let trade = try call.resolver.resolve(TradeService.self)
            return ["total": trade.quote(itemId: item) * quantity]
        }
        component.command("order", reachableByURL: true) { call in
            let item: String = try call.argument("item")
            let quantity = try call.argument("quantity", as: Int.self)
            return ["number": 1, "item": item, "quantity": quantity]
        }
        component.command("track", reachableByURL: true) { call in
            call.callback(["progress": 50])
            try await Task.sleep(for: .milliseconds(1))
            return ["status": "delivered"]
        }
    }
    // end-snippet
    return hive
}

@Suite("Component snippets", .timeLimit(.minutes(5)))
struct ComponentSnippetTests {
    @Test("Calling Components by Name: a synchronous call, an async call with callbacks, a completion handler")
    func calls() async throws {
        let hive = try articleHive()
        let syncReply = try await within("a synchronous call on a detached task") {
            try await Task.detached {
                // snippet: components-call
                let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
                let total: Int = try reply.value("total")  // 2500
                // end-snippet
                return total
            }.value
        }
        #expect(syncReply == 2_500)

        let updates = Locked<[Int]>([])
        // snippet: components-async
        let tracked = try await hive.call("trade", "track", arguments: ["order": 1]) { update in
            updates.withLock { $0.append((try? update.value("progress", as: Int.self)) ?? 0) }
            print(update)  // [progress: 50]
        }
        // end-snippet
        #expect(try tracked.value("status", as: String.self) == "delivered")
        #expect(updates.current == [50])

        let status = try await within("the completion handler") {
            await withCheckedContinuation { continuation in
                // snippet: components-completion
                hive.call("trade", "track", arguments: ["order": 1]) { result in
                    continuation.resume(returning: (try? result.get().value("status", as: String.self)) ?? "")
                    switch result {
                    case .success(let reply): print(reply)  // [status: "delivered"]
                    case .failure(let error): print(error)  // a ComponentError
                    }
                }
                // end-snippet
            }
        }
        #expect(status == "delivered")
    }

    @Test("Calling Components by Name: a typed command, declared and called")
    func typed() async throws {
        let hive = ServiceHive()
        // snippet: components-typed-use
        try hive.registerComponent("trade") { component in
            component.command(.tradeQuote) { request, call in
                QuoteReply(total: 1_250 * request.quantity)
            }
        }

        let quote = try await hive.call(.tradeQuote, QuoteRequest(item: "hive-42", quantity: 2))
        print(quote.total)  // 2500
        // end-snippet
        #expect(quote.total == 2_500)
        let weak = try await hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 3])
        #expect(try weak.value("total", as: Int.self) == 3_750)
    }

    @Test("Calling Components by Name: a URL opens only what is reachable by URL")
    func url() async throws {
        let hive = try articleHive()
        // snippet: components-url
        try hive.acceptURLSchemes(["shop"])

        let link = URL(string: "shop://trade/order?item=hive-42&quantity=2")!
        if hive.canOpen(link) {
            let reply = try await hive.open(link)
            print(try reply.value("quantity", as: Int.self))  // 2: the text "2", read as an Int
        }
        // end-snippet
        let refused = await #expect(throws: ComponentError.self) {
            try await hive.open(URL(string: "shop://trade/quote?item=hive-42&quantity=2")!)
        }
        #expect(refused?.code == 400)
    }

    @Test("Calling Components by Name: a URL with callbacks, and with a completion handler")
    func urlCallbackAndCompletion() async throws {
        let hive = try articleHive()
        let updates = Locked<[String]>([])
        // snippet: components-url-callback
        let tracking = URL(string: "shop://trade/track?order=1")!
        let tracked = try await hive.open(tracking) { update in
            updates.withLock { $0.append(update.description) }
            print(update)  // [progress: 50]
        }
        // end-snippet
        #expect(try tracked.value("status", as: String.self) == "delivered")
        #expect(updates.current == ["[progress: 50]"])

        let link = URL(string: "shop://trade/order?item=hive-42&quantity=2")!
        let answered = Locked<String?>(nil)
        // snippet: components-url-completion
        hive.open(link) { result in
            answered.withLock { $0 = (try? result.get())?.description }
            switch result {
            case .success(let reply): print(reply)  // [item: "hive-42", number: 1, quantity: 2]
            case .failure(let error): print(error)  // a ComponentError
            }
        }
        // end-snippet
        #expect(answered.current == #"[item: "hive-42", number: 1, quantity: 2]"#, "a synchronous command, at once")
    }

    @Test("Calling Components by Name: an optional argument is nil when not passed, and an error when wrong")
    func optionalArgument() throws {
        let hive = ServiceHive()
        // snippet: components-optional
        try hive.registerComponent("catalog") { component in
            component.command("search") { call in
                let limit = try call.argument("limit", as: Int?.self) ?? 20
                return ["limit": limit]
            }
        }

        let defaulted = try hive.call("catalog", "search")  // [limit: 20]: no limit passed
        let mismatch = #expect(throws: ComponentError.self) {
            _ = try hive.call("catalog", "search", arguments: ["limit": "ten"])  // argumentTypeMismatch, code 301
        }
        // end-snippet
        #expect(defaulted.description == "[limit: 20]")
        #expect(mismatch?.code == 301)
    }

    @Test("Calling Components by Name: a fallback answers what nothing else does")
    func fallback() async throws {
        let hive = try articleHive()
        // snippet: components-fallback
        try hive.registerComponentFallback { call, error in
            print("no answer for \(call.component)/\(call.command): \(error.code)")
            return ["screen": "not-found"]
        }
        // end-snippet
        let reply = try await hive.open(URL(string: "shop://promo/spring")!)
        #expect(try reply.value("screen", as: String.self) == "not-found")
    }

    @Test("Calling Components by Name: overrides replace a whole component, or one command")
    func overrides() throws {
        let hive = try articleHive()
        // snippet: components-overrides
        try hive.withOverrides {
            $0.registerCommand("quote", of: "trade") { _ in ["total": 0] }
        } operation: {
            let reply = try hive.call("trade", "quote")  // the replacement; order and track are real
            #expect(try reply.value("total", as: Int.self) == 0)
        }

        hive.withOverrides {
            $0.registerComponent("trade") { $0.command("quote") { _ in ["total": 0] } }
        } operation: {
            let order = #expect(throws: ComponentError.self) { try hive.call("trade", "order") }
            #expect(order?.code == 200)  // commandNotFound: the fake trade has only quote
        }
        // end-snippet
    }

    @Test("ServiceHiveComponents' landing page: a component registered and called by name")
    func landing() throws {
        let hive = ServiceHive()
        // snippet: components-landing
        try hive.registerComponent("trade") { component in
            component.command("quote") { call in
                let quantity = try call.argument("quantity", as: Int.self)
                return ["total": 1_250 * quantity]
            }
        }

        let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        let total: Int = try reply.value("total")  // 2500
        // end-snippet
        #expect(total == 2_500)
    }

    @Test("Calling Components by Name: catching ComponentError, then the hive's own errors")
    func catching() throws {
        let hive = try articleHive()
        #expect(Self.caught(in: hive) == "reply [total: 2500]")
        #expect(Self.caught(in: ServiceHive()) == "component 100")
        hive.withOverrides(strict: true) { _ in
        } operation: {
            #expect(Self.caught(in: hive) == "hive 11", "notOverridden, from the hive's lookup")
        }
    }

    /// What the article's snippet catches from a call to trade/quote in `hive`: the reply, a `ComponentError`'s code,
    /// or another error's code.
    static func caught(in hive: ServiceHive) -> String {
        var outcome = ""
        // snippet: components-catch
        do {
            let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
            print(reply)
            outcome = "reply \(reply)"
        } catch let error as ComponentError {
            print(error.code, error)  // 100 to 600: the component, the call, or the URL
            outcome = "component \(error.code)"
        } catch {
            print(error)  // a ServiceHiveError: the hive refused the lookup
            outcome = "hive \((error as? ServiceHiveError)?.code ?? 0)"
        }
        // end-snippet
        return outcome
    }

    @Test("README: a component called three ways")
    func readme() async throws {
        let hive = try articleHive()
        // snippet: components-readme
        let reply = try await hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        let total: Int = try reply.value("total")  // 2500, read by name

        let link = URL(string: "shop://trade/order?item=hive-42&quantity=2")!
        let order = try await hive.open(link)  // only commands marked reachableByURL answer a URL

        let quote = try await hive.call(.tradeQuote, QuoteRequest(item: "hive-42", quantity: 2))
        // end-snippet
        #expect(total == 2_500)
        #expect(try order.value("number", as: Int.self) == 1)
        #expect(quote.total == 2_500)
    }
}
