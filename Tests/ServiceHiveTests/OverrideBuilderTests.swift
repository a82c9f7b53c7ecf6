import ServiceHive
import Support
import Testing

// Every call in this file is written as a user writes it: no `try` on a builder's registration, and none on a
// `withOverrides` whose operation cannot throw. A `try` that crept back would not compile without a warning, and a
// builder method that threw again would not compile at all.

@Suite(
    "The override builder: registrations that cannot fail, where a later one replaces an earlier one",
    .timeLimit(.minutes(5)))
struct OverrideBuilderTests {
    @Test("withOverrides needs no try when its operation cannot throw, in sync and async code")
    func noTry() async {
        let hive = ServiceHive()
        let label = hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "sync") }
        } operation: {
            (try? hive.resolve(TradeService.self) as? MockTradeService)?.label
        }
        #expect(label == "sync")
        let asyncLabel = await hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "async") }
        } operation: {
            await Task.yield()
            return (try? hive.resolve(TradeService.self) as? MockTradeService)?.label
        }
        #expect(asyncLabel == "async")
    }

    @Test("withOverrides throws what its operation throws, and only that")
    func throwsWhatItsOperationThrows() async {
        let hive = ServiceHive()
        #expect(throws: DatabaseOffline.self) {
            try hive.withOverrides {
                $0.register(Clock.self) { SystemClock() }
            } operation: {
                throw DatabaseOffline()
            }
        }
        await #expect(throws: DatabaseOffline.self) {
            try await hive.withOverrides {
                $0.register(Clock.self) { SystemClock() }
            } operation: {
                await Task.yield()
                throw DatabaseOffline()
            }
        }
    }

    @Test("scopes made in a non-throwing task group each see their own overrides")
    func taskGroup() async throws {
        let hive = ServiceHive()
        let labels = try await within("twenty scopes") {
            await withTaskGroup(of: String?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        await hive.withOverrides {
                            $0.register(TradeService.self) { MockTradeService(label: "\(index)") }
                        } operation: {
                            await Task.yield()
                            return (try? hive.resolve(TradeService.self) as? MockTradeService)?.label
                        }
                    }
                }
                return await group.reduce(into: Set<String?>()) { $0.insert($1) }
            }
        }
        #expect(labels == Set((0..<20).map { "\($0)" }))
    }

    @Test("a second registration of the same key replaces the first, in every form")
    func secondReplacesFirst() throws {
        let hive = ServiceHive()
        let instance = MockTradeService(label: "instance")
        try hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "factory") }
            $0.register(TradeService.self, scope: .singleton) { _ in MockTradeService(label: "resolver factory") }
            $0.register(TradeService.self, instance: instance)
            $0.register(TradeService.self, name: "premium", instance: MockTradeService(label: "first premium"))
            $0.register(TradeService.self, name: "premium") { MockTradeService(label: "premium") }
            $0.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: "first \(name)") }
            $0.register(Greeter.self) { (_: ServiceHive.Resolver, name: String) in LiveGreeter(name: name) }
            $0.register(Greeter.self) { (_: ServiceHive.Resolver, name: String, times: Int) in
                LiveGreeter(name: name, times: times)
            }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            let premium = try hive.resolve(TradeService.self, name: "premium")
            let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
            #expect(trade === instance)
            #expect((premium as? MockTradeService)?.label == "premium")
            #expect(greeter.greeting == "Hello, Mimi!")
            let twice = try hive.resolve(Greeter.self, arguments: "Mimi", 2)
            #expect(twice.greeting == "Hello, Mimi! Hello, Mimi!", "other argument types are another key")
        }
    }

    @Test("an async factory replaces a synchronous one of the same key, and the other way round")
    func asyncReplaces() async throws {
        let hive = ServiceHive()
        let first = try await hive.withOverrides {
            $0.register(TradeService.self) { MockTradeService(label: "sync") }
            $0.register(TradeService.self, scope: .singleton) { _ async in MockTradeService(label: "async") }
        } operation: {
            try await hive.resolveAsync(TradeService.self) as? MockTradeService
        }
        #expect(first?.label == "async")
        try hive.withOverrides {
            $0.register(TradeService.self) { _ async in MockTradeService(label: "async") }
            $0.register(TradeService.self) { MockTradeService(label: "sync") }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect((trade as? MockTradeService)?.label == "sync")
        }
    }

    @Test("a forward follows a later registration of its target in the same builder, which replaces the first")
    func forwardFollowsReplacedTarget() throws {
        let hive = ServiceHive()
        try hive.withOverrides {
            $0.register(MockTradeService.self) { MockTradeService(label: "first") }
            $0.forward(TradeService.self, to: MockTradeService.self) { $0 }
            $0.register(MockTradeService.self, scope: .singleton) { MockTradeService(label: "second") }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            let target = try hive.resolve(MockTradeService.self)
            #expect((trade as? MockTradeService)?.label == "second")
            #expect(trade === target, "the forward shares the singleton")
        }
    }

    @Test("a second forward of the same key replaces the first")
    func forwardReplaces() throws {
        let hive = ServiceHive()
        try hive.withOverrides {
            $0.register(MockTradeService.self) { MockTradeService(label: "mock") }
            $0.register(PremiumTradeService.self) { PremiumTradeService() }
            $0.forward(TradeService.self, to: MockTradeService.self) { $0 }
            $0.forward(TradeService.self, to: PremiumTradeService.self) { $0 }
        } operation: {
            let trade = try hive.resolve(TradeService.self)
            #expect(trade is PremiumTradeService)
        }
    }

    @Test("the builder tells the hive that a Sendable service is Sendable, in every form, as the hive's overloads do")
    func sendable() async throws {
        let hive = ServiceHive()
        try hive.register(FrozenNotepad.self) { FrozenNotepad(["live"]) }
        typealias SendablePad = any Notepad & Sendable
        let forms: [(String, (inout ServiceHive.Overrides) -> Void)] = [
            ("factory", { $0.register(SendablePad.self) { FrozenNotepad(["factory"]) } }),
            ("resolver factory", { $0.register(SendablePad.self) { _ in FrozenNotepad(["resolver factory"]) } }),
            ("instance", { $0.register(SendablePad.self, instance: FrozenNotepad(["instance"])) }),
            (
                "forward",
                {
                    $0.register(FrozenNotepad.self) { FrozenNotepad(["forward"]) }
                    $0.forward(SendablePad.self, to: FrozenNotepad.self) { $0 }
                }
            ),
        ]
        for (form, configure) in forms {
            try hive.withOverrides(configure) {
                let pad = try hive.resolve(SendablePad.self)
                #expect(pad.lines == [form])
            }
        }
        let async = try await hive.withOverrides {
            $0.register(SendablePad.self) { _ async in FrozenNotepad(["async"]) }
        } operation: {
            try await hive.resolveAsync(SendablePad.self).lines
        }
        #expect(async == ["async"])
        try hive.withOverrides {
            $0.register(SendablePad.self) { (_: ServiceHive.Resolver, line: String) in FrozenNotepad([line]) }
        } operation: {
            let pad = try hive.resolve(SendablePad.self, arguments: "arguments")
            #expect(pad.lines == ["arguments"])
        }
        hive.withOverrides {
            $0.register((any Notepad).self) { PlainNotepad() }
        } operation: {
            let refused = error { _ = try hive.resolve(SendablePad.self) }
            #expect(refused.map { if case .notSendable = $0 { true } else { false } } == true)
        }
    }

    // MARK: - Programmer errors

    @Test("an async factory with a .weak scope stops the test, naming the registration and the fix")
    func weakAsyncTraps() async throws {
        let result = try #require(
            try await within("the exit test") {
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    ServiceHive().withOverrides {
                        $0.register(TradeService.self, scope: .weak) { _ async in MockTradeService() }
                    } operation: {
                    }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("withOverrides: the override at ServiceHiveTests/OverrideBuilderTests.swift:"))
        #expect(
            message.contains(
                "cannot be registered: TradeService cannot be registered: an async factory cannot build a .weak "
                    + "instance. To fix, register it as .singleton, or in a named scope, or give it a synchronous "
                    + "factory."))
    }

    @Test("a forward to a target the builder does not register stops the test, naming the target and the fix")
    func forwardWithoutTargetTraps() async throws {
        let result = try #require(
            try await within("the exit test") {
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let hive = ServiceHive()
                    try? hive.register(LiveStore.self) { LiveStore() }
                    hive.withOverrides {
                        $0.forward(Reader.self, to: LiveStore.self) { $0 }
                    } operation: {
                    }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "Reader cannot be registered: the target LiveStore is not registered in this hive. To fix, register "
                    + "LiveStore in this hive first, then forward to it."))
    }
}
