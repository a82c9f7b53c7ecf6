import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing
import TradeModule

@Suite("TradeModule's trade component, called typed, by name and by URL", .timeLimit(.minutes(5)))
struct TradeComponentTests {
    @Test("the typed wrappers quote, order and track through the module's services")
    func typed() async throws {
        let hive = try await tradeHive()
        let quote = try await hive.call(.tradeQuote, TradeRequest(itemId: "hive-42", quantity: 2))
        #expect(quote.total == Money(cents: 2_500))
        #expect(quote.description == "2 × hive-42 at $12.50 (standard) = $25.00")
        let order = try await hive.call(.tradeOrder, TradeRequest(itemId: "smoker", quantity: 1))
        #expect(order.description == "order #1: 1 × smoker = $45.00")
        #expect(try hive.resolve(InventoryService.self).stock(of: "smoker") == 0)
        let progress = Locked<[Int]>([])
        let tracked = try await hive.call(.tradeTrack, TrackRequest(order: order.number)) { update in
            progress.withLock { $0.append((try? update.value("progress", as: Int.self)) ?? -1) }
        }
        #expect(tracked.status == "delivered")
        #expect(progress.current == [50, 100])
    }

    @Test("weak-typed callers and URLs see the same arguments and reply as the typed wrappers")
    func weakTypedAndURL() async throws {
        let hive = try await tradeHive()
        let reply = try await hive.call("trade", "quote", arguments: ["item": "honey-jar", "quantity": 3])
        #expect(try reply.value("total", as: Int.self) == 2_697)
        #expect(try reply.value("unitPrice", as: Int.self) == 899)
        let honey = Quote(itemId: "honey-jar", quantity: 3, unitPrice: Money(cents: 899), tier: "standard")
        #expect(try reply.decode(Quote.self) == honey, "the reply of quote is a Quote, with its total")
        let order = try await hive.open(URL(string: "shop://trade/order?item=hive-42&quantity=2")!)
        #expect(try order.value("number", as: Int.self) == 1)
        #expect(try order.decode(OrderReply.self).total == Money(cents: 2_500))
    }

    @Test("a URL tracks an order with the command's callbacks, awaited or with a completion handler")
    func trackByURL() async throws {
        let hive = try await tradeHive()
        let link = try #require(URL(string: "shop://trade/track?order=7"))
        let progress = Locked<[String]>([])
        let record: @Sendable (ServiceHive.ComponentReply) -> Void = { update in
            let order = (try? update.value("order", as: Int.self)) ?? -1
            let percent = (try? update.value("progress", as: Int.self)) ?? -1
            progress.withLock { $0.append("#\(order) \(percent)%") }
        }
        let tracked = try await hive.open(link, callback: record)
        #expect(try tracked.decode(TrackReply.self) == TrackReply(order: 7, status: "delivered"))
        #expect(progress.current == ["#7 50%", "#7 100%"])

        let completed = try await within("the completion handler") {
            await withCheckedContinuation { continuation in
                hive.open(link, callback: record) { result in
                    continuation.resume(returning: (try? result.get().value("status", as: String.self)) ?? "failed")
                }
            }
        }
        #expect(completed == "delivered")
        #expect(progress.current == ["#7 50%", "#7 100%", "#7 50%", "#7 100%"], "every callback before completion")

        let withoutCallback = try await within("the completion handler without a callback") {
            await withCheckedContinuation { continuation in
                hive.open(link) { result in
                    continuation.resume(returning: (try? result.get().value("order", as: Int.self)) ?? -1)
                }
            }
        }
        #expect(withoutCallback == 7)
    }

    @Test("the trade rules' refusals reach the caller as commandFailed with the TradeError inside")
    func refusals() async throws {
        let hive = try await tradeHive()
        do {
            _ = try await hive.call(.tradeOrder, TradeRequest(itemId: "smoker", quantity: 2))
            Issue.record("expected the order to be refused")
        } catch ComponentError.commandFailed("trade", "order", let underlying) {
            #expect(underlying as? TradeError == .outOfStock(itemId: "smoker", requested: 2, available: 1))
        }
        let notByURL = await #expect(throws: ComponentError.self) {
            try await hive.open(URL(string: "shop://trade/quote?item=hive-42&quantity=1")!)
        }
        #expect(notByURL?.code == 400)
    }

    @Test("tests swap the services under the component, or one of its commands, with overrides")
    func overrides() async throws {
        let hive = try await tradeHive()
        let quote = try hive.withOverrides {
            $0.register(PricingService.self) { FlatPricing() }
        } operation: {
            try hive.call(.tradeQuote, TradeRequest(itemId: "hive-42", quantity: 3))
        }
        #expect(quote.total == Money(cents: 300))
        #expect(quote.tier == "flat")

        let order = try hive.withOverrides {
            $0.registerCommand(.tradeOrder) { request, _ in
                let quote = Quote(itemId: request.itemId, quantity: 1, unitPrice: Money(cents: 0), tier: "test")
                return OrderReply(Order(number: 99, quote: quote))
            }
        } operation: {
            try hive.call(.tradeOrder, TradeRequest(itemId: "hive-42", quantity: 1))
        }
        #expect(order.number == 99)
        #expect(try hive.resolve(InventoryService.self).stock(of: "hive-42") == 5, "the real order never ran")
    }

    @Test("the component is part of the module: attributed to Trade, listed, and validated")
    func registration() async throws {
        let hive = try await tradeHive()
        let trade = try #require(hive.components.first)
        #expect(trade.name == "trade")
        #expect(trade.module == "Trade")
        #expect(trade.commands.map(\.name) == ["order", "quote", "track"])
        #expect(trade.commands.map(\.isReachableByURL) == [true, false, true])
        #expect(trade.commands.map(\.isAsync) == [false, false, true])
        #expect(trade.commands.allSatisfy { $0.site.fileID == "TradeModule/TradeComponent.swift" })
        #expect(hive.validate().failures.isEmpty)
    }
}
