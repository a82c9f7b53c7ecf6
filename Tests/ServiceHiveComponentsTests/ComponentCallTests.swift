import Foundation
import ServiceHive
import ServiceHiveComponents
import Support
import Testing

@Suite("Components: registering and calling by name", .timeLimit(.minutes(5)))
struct ComponentCallTests {
    // MARK: - Calls

    @Test("a synchronous call runs a synchronous command with its arguments and returns its reply")
    func syncCall() throws {
        let hive = try tradeComponentHive()
        let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        #expect(try reply.value("total", as: Int.self) == 2_500)
        let item: String = try reply.value("item")
        #expect(item == "hive-42")
        #expect(reply.description == #"[item: "hive-42", quantity: 2, total: 2500]"#)
    }

    @Test("a synchronous call answers on the calling thread, without starting a task")
    func syncCallNeedsNoTask() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("probe") { component in
            component.command("inTask") { _ in ["inTask": withUnsafeCurrentTask { $0 != nil }] }
        }
        let answers = try await onThreads(1, "the call") { _ in
            try hive.call("probe", "inTask").value("inTask", as: Bool.self)
        }
        #expect(answers == [false])
    }

    @Test("an async call runs async commands, and sync ones without suspending, with every callback before it returns")
    func asyncCall() async throws {
        let hive = try tradeComponentHive()
        let updates = Locked<[Int]>([])
        let reply = try await hive.call("trade", "track", arguments: ["order": 1]) { update in
            updates.withLock { $0.append((try? update.value("progress", as: Int.self)) ?? -1) }
        }
        #expect(try reply.value("status", as: String.self) == "delivered")
        #expect(updates.current == [50, 100])

        let quote = try await hive.call("trade", "quote", arguments: ["item": "honey-jar", "quantity": 3])
        #expect(try quote.value("total", as: Int.self) == 2_697)
    }

    @Test("a synchronous command's callbacks reach a synchronous caller, in order, before the call returns")
    func syncCallbacks() throws {
        let hive = ServiceHive()
        try hive.registerComponent("steps") { component in
            component.command("run") { call in
                for step in 1...3 { call.callback(["step": step]) }
                return ["done": true]
            }
        }
        let steps = Locked<[Int]>([])
        let reply = try hive.call("steps", "run") { update in
            steps.withLock { $0.append((try? update.value("step", as: Int.self)) ?? 0) }
        }
        #expect(steps.current == [1, 2, 3])
        #expect(try reply.value("done", as: Bool.self))
        #expect(try hive.call("steps", "run").values.count == 1, "without a callback, calling back does nothing")
    }

    @Test("async implementations registered on their own replace a command, weak-typed and typed")
    func asyncRegisterCommand() async throws {
        let hive = try tradeComponentHive()
        let child = ServiceHive(parent: hive)
        try child.registerCommand("quote", of: "trade") { _ in
            await Task.yield()
            return ["total": 7]
        }
        try child.registerCommand(.tradeOrder) { request, _ in
            await Task.yield()
            return TradeQuoteReply(item: request.item, quantity: request.quantity, total: 8)
        }
        #expect(try await child.call("trade", "quote").value("total", as: Int.self) == 7)
        #expect(try await child.call(.tradeOrder, TradeQuoteRequest(item: "x", quantity: 1)).total == 8)
        #expect(error { _ = try child.call("trade", "quote") }?.code == 201, "the replacement is async")
    }

    @Test("declaring a typed command in another component is a programmer error that stops the process")
    func typedCommandInAnotherComponent() async throws {
        try await within("the exit test") {
            await #expect(processExitsWith: .failure) {
                let hive = ServiceHive()
                try? hive.registerComponent("shop") { component in
                    component.command(.tradeQuote) { request, _ in
                        TradeQuoteReply(item: request.item, quantity: request.quantity, total: 0)
                    }
                }
            }
        }
    }

    @Test("a callback's reply names its command, so reading a missing value says which")
    func callbackReplyKnowsItsCommand() async throws {
        let hive = try tradeComponentHive()
        let errors = Locked<[String]>([])
        _ = try await hive.call("trade", "track") { update in
            do {
                _ = try update.value("percent", as: Int.self)
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.current.count == 2)
        #expect(errors.current.first?.hasPrefix("The reply of trade/track has no value 'percent'.") == true)
    }

    @Test("the completion-handler form answers a synchronous command before it returns")
    func completionSync() throws {
        let hive = try tradeComponentHive()
        let result = Locked<Result<ServiceHive.ComponentReply, any Error>?>(nil)
        hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1]) { outcome in
            result.withLock { $0 = outcome }
        }
        let reply = try #require(try result.current?.get())
        #expect(try reply.value("total", as: Int.self) == 1_250)
    }

    @Test("the completion-handler form runs an async command in a task, and reports failures as ComponentError")
    func completionAsync() async throws {
        let hive = try tradeComponentHive()
        let status = try await within("the completion handler") {
            await withCheckedContinuation { continuation in
                hive.call("trade", "track") { outcome in
                    continuation.resume(returning: (try? outcome.get().value("status", as: String.self)) ?? "failed")
                }
            }
        }
        #expect(status == "delivered")

        let failure = try await within("the failure's completion handler") {
            await withCheckedContinuation { continuation in
                hive.call("trade", "qoute") { outcome in
                    if case .failure(let error) = outcome {
                        continuation.resume(returning: (error as? ComponentError)?.code ?? 0)
                    } else {
                        continuation.resume(returning: 0)
                    }
                }
            }
        }
        #expect(failure == 200)
    }

    @Test("a command's own error reaches the caller as commandFailed, with the error inside")
    func commandFailure() throws {
        let hive = try tradeComponentHive()
        let thrown = error { _ = try hive.call("trade", "quote", arguments: ["item": "smoker", "quantity": 1]) }
        guard case .commandFailed("trade", "quote", let underlying) = thrown else {
            Issue.record("expected commandFailed, got \(String(describing: thrown))")
            return
        }
        #expect((underlying as? UnknownItem)?.item == "smoker")
    }

    @Test("an error from a call the command makes itself is the command's failure, not the caller's")
    func nestedCallFailure() throws {
        let hive = ServiceHive()
        try hive.registerComponent("outer") { component in
            component.command("relay") { call in try call.resolver.resolve(ServiceHive.self).call("inner", "x") }
        }
        try hive.register(ServiceHive.self, instance: hive)
        defer { hive.removeAll() }  // the hive holds itself as an instance until then
        let thrown = error { _ = try hive.call("outer", "relay") }
        guard case .commandFailed("outer", "relay", let underlying) = thrown else {
            Issue.record("expected commandFailed, got \(String(describing: thrown))")
            return
        }
        #expect((underlying as? ComponentError)?.code == 100)
    }

    // MARK: - Reading arguments

    @Test("arguments read exactly, or converted without loss")
    func argumentConversions() throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("read") { call in
                [
                    "int": try call.argument("int", as: Int.self),
                    "bool": try call.argument("bool", as: Bool.self),
                    "double": try call.argument("double", as: Double.self),
                    "int32": try call.argument("int32", as: Int32.self),
                    "whole": try call.argument("whole", as: Int.self),
                    "note": try call.argument("note", as: String?.self) as Any as? String ?? "none",
                    "text": try call.argument("text", as: String.self),
                ]
            }
        }
        let reply = try hive.call(
            "echo", "read",
            arguments: ["int": "2", "bool": "true", "double": 2, "int32": 7, "whole": 2.0, "text": "hi"])
        #expect(try reply.value("int", as: Int.self) == 2)
        #expect(try reply.value("bool", as: Bool.self) == true)
        #expect(try reply.value("double", as: Double.self) == 2.0)
        #expect(try reply.value("int32", as: Int32.self) == 7)
        #expect(try reply.value("whole", as: Int.self) == 2)
        #expect(try reply.value("note", as: String.self) == "none")
        #expect(try reply.value("text", as: String.self) == "hi")
    }

    @Test(
        "values that do not convert without loss are refused",
        arguments: [
            ("two", "Int"), ("2.5", "Int"), ("yes", "Bool"), ("300", "Int8"),
        ] as [(String, String)])
    func lossyConversions(text: String, type: String) throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("read") { call in
                switch type {
                case "Int": _ = try call.argument("value", as: Int.self)
                case "Bool": _ = try call.argument("value", as: Bool.self)
                default: _ = try call.argument("value", as: Int8.self)
                }
                return [:]
            }
        }
        let thrown = error { _ = try hive.call("echo", "read", arguments: ["value": text]) }
        #expect(thrown?.code == 301)
    }

    @Test("numbers that do not convert exactly are refused: 2.5 as Int, 300 as Int8, -1 as UInt, 1 as Bool")
    func lossyNumbers() throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("int") { call in ["value": try call.argument("value", as: Int.self)] }
            component.command("int8") { call in ["value": try call.argument("value", as: Int8.self)] }
            component.command("uint") { call in ["value": try call.argument("value", as: UInt.self)] }
            component.command("bool") { call in ["value": try call.argument("value", as: Bool.self)] }
        }
        #expect(error { _ = try hive.call("echo", "int", arguments: ["value": 2.5]) }?.code == 301)
        #expect(error { _ = try hive.call("echo", "int8", arguments: ["value": 300]) }?.code == 301)
        #expect(error { _ = try hive.call("echo", "uint", arguments: ["value": -1]) }?.code == 301)
        #expect(error { _ = try hive.call("echo", "bool", arguments: ["value": 1]) }?.code == 301)
        #expect(try hive.call("echo", "int8", arguments: ["value": 100]).value("value", as: Int8.self) == 100)
    }

    @Test("a nil argument reads as missing, and as nil for an optional")
    func nilArgument() throws {
        let hive = ServiceHive()
        try hive.registerComponent("echo") { component in
            component.command("optional") { call in ["isNil": try call.argument("note", as: String?.self) == nil] }
            component.command("required") { call in ["note": try call.argument("note", as: String.self)] }
        }
        let note: String? = nil
        #expect(try hive.call("echo", "optional", arguments: ["note": note]).value("isNil", as: Bool.self))
        #expect(error { _ = try hive.call("echo", "required", arguments: ["note": note]) }?.code == 300)
    }

    @Test("a reply's values convert as arguments do, and a name given twice in a literal keeps the last")
    func replyValues() throws {
        let reply: ServiceHive.ComponentReply = ["count": "3", "ratio": 1, "count2": 2, "count2 ": 0]
        #expect(try reply.value("count", as: Int.self) == 3)
        #expect(try reply.value("ratio", as: Double.self) == 1.0)
        #expect(try reply.value("missing", as: Int?.self) == nil)
        #expect(reply["count"] as? String == "3")
        let twice = ServiceHive.ComponentReply(dictionaryLiteral: ("a", 1), ("a", 2))
        #expect(try twice.value("a", as: Int.self) == 2)
        #expect(ServiceHive.ComponentReply().description == "[:]")
    }

    // MARK: - Objects and scopes

    @Test("a component's singleton object is built on its first call, once, and kept")
    func singletonObject() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.registerComponent("counter", scope: .singleton) { _ in
            Counter(id: builds.increment())
        } commands: {
            component in
            component.command("next") { counter, _ in ["id": counter.id, "value": counter.next()] }
        }
        #expect(builds.current == 0, "built on the first call, not at registration")
        let first = try hive.call("counter", "next")
        let second = try hive.call("counter", "next")
        #expect(builds.current == 1)
        #expect(try first.value("value", as: Int.self) == 1)
        #expect(try second.value("value", as: Int.self) == 2)
    }

    @Test("a transient object is built for every call, as CTMediator builds a target it does not cache")
    func transientObject() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.registerComponent("counter", scope: .transient) { _ in
            Counter(id: builds.increment())
        } commands: {
            component in
            component.command("next") { counter, _ in ["value": counter.next()] }
        }
        _ = try hive.call("counter", "next")
        let second = try hive.call("counter", "next")
        #expect(builds.current == 2)
        #expect(try second.value("value", as: Int.self) == 1)
    }

    @Test("an existing object serves every call, async commands included")
    func instanceObject() async throws {
        let hive = ServiceHive()
        let counter = Counter(id: 7)
        try hive.registerComponent("counter", instance: counter) { component in
            component.command("next") { counter, _ in ["value": counter.next()] }
            component.command("later") { counter, _ in
                await Task.yield()
                return ["value": counter.next()]
            }
        }
        _ = try await hive.call("counter", "next")
        let reply = try await hive.call("counter", "later")
        #expect(try reply.value("value", as: Int.self) == 2)
        #expect(counter.next() == 3)
        #expect(hive.registrations.contains { $0.service == "Counter" && $0.name == "counter" })
    }

    @Test("an object whose factory fails fails the call as the command's failure")
    func objectFailure() throws {
        let hive = ServiceHive()
        try hive.registerComponent("broken") { _ -> Counter in
            throw DatabaseOffline()
        } commands: { component in
            component.command("next") { counter, _ in ["value": counter.next()] }
        }
        let thrown = error { _ = try hive.call("broken", "next") }
        guard case .commandFailed("broken", "next", let underlying) = thrown else {
            Issue.record("expected commandFailed, got \(String(describing: thrown))")
            return
        }
        #expect((underlying as? ServiceHiveError)?.code == 4)
    }

    // MARK: - The fallback

    @Test("without a fallback, calls that nothing answers throw; with one, it answers them and gets the error")
    func fallback() throws {
        let hive = try tradeComponentHive()
        #expect(error { _ = try hive.call("shop", "home") }?.code == 100)

        let seen = Locked<[String]>([])
        try hive.registerComponentFallback { call, error in
            seen.withLock { $0.append("\(call.component)/\(call.command) \(error.code)") }
            return ["screen": "not-found"]
        }
        let missingComponent = try hive.call("shop", "home")
        let missingCommand = try hive.call("trade", "refund")
        #expect(try missingComponent.value("screen", as: String.self) == "not-found")
        #expect(try missingCommand.value("screen", as: String.self) == "not-found")
        #expect(seen.current == ["shop/home 100", "trade/refund 200"])
        #expect(try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1]).values.count == 3)

        let again = error(ServiceHiveError.self) { try hive.registerComponentFallback { _, _ in [:] } }
        #expect(again?.code == 2, "one fallback per hive")
    }

    @Test("a fallback's own error reaches the caller as commandFailed; its ServiceHiveError as it is")
    func fallbackFailure() throws {
        let hive = ServiceHive()
        try hive.registerComponentFallback { call, error in
            if call.component == "plain" { throw DatabaseOffline() }
            throw error
        }
        #expect(error { _ = try hive.call("plain", "x") }?.code == 500)
        #expect(error { _ = try hive.call("other", "x") }?.code == 100)
    }

    // MARK: - Registering

    @Test("registering a component twice, or a command twice, throws alreadyRegistered with both places")
    func duplicates() throws {
        let hive = ServiceHive()
        try hive.registerComponent("trade", file: "Trade/Trade.swift", line: 10) { $0.command("quote") { _ in [:] } }
        let component = error(ServiceHiveError.self) {
            try hive.registerComponent("trade", file: "App/App.swift", line: 20) { $0.command("x") { _ in [:] } }
        }
        #expect(
            component?.description
                == "Component (name: \"trade\") is already registered at Trade/Trade.swift:10; the registration at "
                + "App/App.swift:20 was rejected. To fix, give one of them a name:, unregister the first, or swap it "
                + "in tests with withOverrides.")

        let command = error(ServiceHiveError.self) {
            try hive.registerComponent("shop") { component in
                component.command("home", file: "Shop/Shop.swift", line: 3) { _ in [:] }
                component.command("home", file: "Shop/Shop.swift", line: 4) { _ in [:] }
            }
        }
        guard case .alreadyRegistered(let key, let existing, let rejected) = command else {
            Issue.record("expected alreadyRegistered, got \(String(describing: command))")
            return
        }
        #expect(key.name == "shop/home")
        #expect(existing.line == 3 && rejected.line == 4)
        #expect(hive.components.map(\.name) == ["trade"], "all or nothing: no part of shop was registered")

        let replacement = error(ServiceHiveError.self) { try hive.registerCommand("quote", of: "trade") { _ in [:] } }
        #expect(replacement?.code == 2, "a hive has one implementation of each command")
    }

    @Test("registering is all or nothing: a clash on the component's object registers nothing")
    func allOrNothing() throws {
        let hive = ServiceHive()
        try hive.register(Counter.self, name: "counter") { Counter() }
        let before = hive.registrations
        let thrown = error(ServiceHiveError.self) {
            try hive.registerComponent("counter", instance: Counter()) { $0.command("next") { _, _ in [:] } }
        }
        #expect(thrown?.code == 2)
        #expect(hive.registrations == before)
        #expect(error { _ = try hive.call("counter", "next") }?.code == 100)
    }

    @Test(
        "names that are not plain names are refused at registration",
        arguments: ["", ".", "..", "a/b", "a b", "tr\u{0}de", "é", String(repeating: "x", count: 65)])
    func invalidNames(name: String) throws {
        let hive = ServiceHive()
        #expect(error { try hive.registerComponent(name) { _ in } }?.code == 600)
        #expect(error { try hive.registerComponent("ok") { $0.command(name) { _ in [:] } } }?.code == 600)
        #expect(error { try hive.registerCommand(name, of: "ok") { _ in [:] } }?.code == 600)
        #expect(hive.registrations.isEmpty)
    }

    @Test("names of letters, digits, '-', '_' and '.' up to 64 characters are accepted")
    func validNames() throws {
        let hive = ServiceHive()
        let long = String(repeating: "x", count: 64)
        try hive.registerComponent("trade.v2_beta-1") { $0.command(long) { _ in ["ok": true] } }
        #expect(try hive.call("trade.v2_beta-1", long).value("ok", as: Bool.self))
    }

    @Test("unregisterComponent removes the component, its commands and its object, and a parent's shows through")
    func unregister() throws {
        let parent = try tradeComponentHive()
        let child = ServiceHive(parent: parent)
        try child.registerComponent("trade", instance: Counter()) { $0.command("next") { c, _ in ["value": c.next()] } }
        #expect(try child.call("trade", "next").values.count == 1)
        let ownCount = child.registrations.count
        #expect(ownCount == 3)

        #expect(child.unregisterComponent("trade"))
        #expect(child.registrations.isEmpty)
        #expect(!child.unregisterComponent("trade"))
        #expect(error { _ = try child.call("trade", "next") }?.code == 200, "the parent's trade has no next")
        #expect(try child.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 1]).values.count == 3)
    }

    // MARK: - Introspection

    @Test("components lists each command, whether it is reachable by URL, and its module and file:line")
    func components() async throws {
        struct ShopModule: ServiceModule {
            var name: String { "Shop" }
            func register(in hive: ServiceHive) throws {
                try hive.registerComponent("shop", file: "Shop/Shop.swift", line: 5) { component in
                    component.command("home", reachableByURL: true, file: "Shop/Shop.swift", line: 6) { _ in [:] }
                    component.command("sync", file: "Shop/Shop.swift", line: 7) { _ in
                        await Task.yield()
                        return [:]
                    }
                }
            }
        }
        let hive = try tradeComponentHive()
        try await hive.install([ShopModule()])
        let listed = hive.components
        #expect(listed.map(\.name) == ["shop", "trade"])
        #expect(
            listed.first?.description == "shop: home (URL), sync (async); module Shop, at Shop/Shop.swift:5")
        #expect(
            listed.first?.commands.map(\.description) == [
                "shop/home, reachable by URL, module Shop, at Shop/Shop.swift:6",
                "shop/sync, async, module Shop, at Shop/Shop.swift:7",
            ])
        #expect(listed.last?.commands.map(\.name) == ["order", "quote", "track"])
        #expect(listed.last?.commands.map(\.isReachableByURL) == [true, false, false])
        #expect(listed.last?.module == nil)
        #expect(listed.first?.commands.first?.module == "Shop")

        let rows = hive.registrations.filter { $0.module == "Shop" }.map(\.description)
        #expect(
            rows == [
                "Component (name: \"shop\"), singleton, module Shop, at Shop/Shop.swift:5",
                "ComponentCommand (name: \"shop/home\"), singleton, module Shop, at Shop/Shop.swift:6",
                "ComponentCommand (name: \"shop/sync\"), singleton, module Shop, at Shop/Shop.swift:7",
            ])
        #expect(hive.description.contains("ComponentCommand  shop/home"))
    }

    // MARK: - Child hives, validation, modules

    @Test("a child hive calls its parent's components, resolving from the child, and may replace one command")
    func childHives() throws {
        let parent = try tradeComponentHive()
        let child = ServiceHive(parent: parent)
        try child.register(Prices.self) { FixedPrices(prices: ["hive-42": 1]) }
        let quote = try child.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        #expect(try quote.value("total", as: Int.self) == 2, "the handler resolves from the hive that was called")

        try child.registerCommand("quote", of: "trade") { _ in ["total": 0] }
        #expect(try child.call("trade", "quote").value("total", as: Int.self) == 0)
        let outside = try parent.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
        #expect(try outside.value("total", as: Int.self) == 2_500)

        try child.registerComponent("trade") { $0.command("ping") { _ in ["pong": true] } }
        #expect(error { _ = try child.call("trade", "quote") }?.code == 200, "the child's trade shadows the parent's")
        #expect(child.components.map(\.commands.count) == [1])
    }

    @Test("validate tries every component registration, and reports an object that cannot be built")
    func validate() throws {
        let hive = try tradeComponentHive()
        try hive.registerComponent("broken") { r in
            try r.resolve(Counter.self)
        } commands: { component in
            component.command("next") { counter, _ in ["value": counter.next()] }
        }
        let report = hive.validate()
        #expect(report.failures.map(\.registration.key.description) == [#"Counter (name: "broken")"#])
        #expect(report.passed.count == hive.registrations.count - 1)
    }

    @Test("a module's failed component registration rolls the whole install back")
    func moduleRollback() async throws {
        struct TradeComponentModule: ServiceModule {
            func register(in hive: ServiceHive) throws { try registerTrade(in: hive) }
        }
        struct ClashingModule: ServiceModule {
            func register(in hive: ServiceHive) throws {
                try hive.register(Counter.self) { Counter() }
                try hive.registerComponent("trade") { $0.command("quote") { _ in [:] } }
            }
        }
        let hive = ServiceHive()
        let thrown = await asyncError(ServiceHiveError.self) {
            try await hive.install([TradeComponentModule(), ClashingModule()])
        }
        guard case .moduleFailed("ClashingModule", .registration, let underlying) = thrown else {
            Issue.record("expected moduleFailed, got \(String(describing: thrown))")
            return
        }
        #expect((underlying as? ServiceHiveError)?.code == 2)
        #expect(hive.registrations.isEmpty)
        #expect(hive.components.isEmpty)
        #expect(error { _ = try hive.call("trade", "quote") }?.code == 100)

        let invalid = await asyncError(ServiceHiveError.self) {
            try await hive.install([TradeComponentModule(), InvalidNameModule()])
        }
        guard case .moduleFailed("InvalidNameModule", .registration, let cause) = invalid else {
            Issue.record("expected moduleFailed, got \(String(describing: invalid))")
            return
        }
        #expect((cause as? ComponentError)?.code == 600)
        #expect(hive.registrations.isEmpty)

        try await hive.install([TradeComponentModule()])
        #expect(hive.components.first?.module == "TradeComponentModule")
    }
}

/// A module that registers a service, then a component with a name that is not valid.
struct InvalidNameModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Counter.self) { Counter() }
        try hive.registerComponent("trade/v2") { _ in }
    }
}
