import ServiceHive
import Support
import Testing

protocol Reader: AnyObject, Sendable { func read() -> String }
protocol Writer: AnyObject, Sendable { func write(_ text: String) }

final class LiveStore: Reader, Writer {
    private let text = Locked("")
    func read() -> String { text.current }
    func write(_ text: String) { self.text.withLock { $0 = text } }
}

final class MockReader: Reader {
    func read() -> String { "mock" }
}

@Suite("Forwarding one registration to several protocols", .timeLimit(.minutes(5)))
struct ForwardingTests {
    func store() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
        try hive.forward(Reader.self, to: LiveStore.self) { $0 }
        try hive.forward(Writer.self, to: LiveStore.self) { $0 }
        return hive
    }

    @Test("a singleton exposed as two protocols resolves to the same instance under all three")
    func sameInstance() throws {
        let hive = try store()
        let writer = try hive.resolve(Writer.self)
        writer.write("hello")
        #expect(try hive.resolve(Reader.self).read() == "hello")
        #expect(try hive.resolve(Reader.self) === hive.resolve(LiveStore.self))
        #expect(try hive.resolve(Writer.self) === hive.resolve(LiveStore.self))
    }

    @Test("forwarded keys are listed, validated, and say what they forward to")
    func introspection() throws {
        let hive = try store()
        #expect(hive.registrations.map(\.description).contains { $0.hasPrefix("Reader, forwards to LiveStore, at") })
        let report = hive.validate()
        #expect(report.passed.map(\.service) == ["LiveStore", "Reader", "Writer"])
        #expect(hive.description.contains("forwards to LiveStore"))
    }

    @Test("a forwarded key can be overridden on its own, and follows an override of its target")
    func overrides() throws {
        let hive = try store()
        try hive.withOverrides {
            $0.register(Reader.self) { MockReader() }
        } operation: {
            let reader = try hive.resolve(Reader.self)
            #expect(reader.read() == "mock")
            #expect(try hive.resolve(Writer.self) === hive.resolve(LiveStore.self), "the other forward is untouched")
        }
        let mock = LiveStore()
        mock.write("overridden target")
        try hive.withOverrides {
            $0.register(LiveStore.self, instance: mock)
        } operation: {
            let reader = try hive.resolve(Reader.self)
            #expect(reader.read() == "overridden target")
        }
    }

    @Test("unregistering the target removes its forwarded keys; forwarding to nothing is refused")
    func removal() throws {
        let hive = try store()
        #expect(hive.unregister(LiveStore.self))
        #expect(!hive.isRegistered(Reader.self) && !hive.isRegistered(Writer.self))
        let thrown = error { try hive.forward(Reader.self, to: LiveStore.self) { $0 } }
        #expect(
            thrown?.description
                == "Reader cannot be registered: the target LiveStore is not registered in this hive. To fix, "
                + "register LiveStore in this hive first, then forward to it.")
    }

    @Test("after its target is reset, a forwarded key resolves the new instance, and keeps the old one alive no longer")
    func targetReset() throws {
        let hive = ServiceHive()
        try hive.register(LiveStore.self, scope: .session) { LiveStore() }
        try hive.forward(Reader.self, to: LiveStore.self) { $0 }
        weak let first = try hive.resolve(LiveStore.self)
        for _ in 0..<2 { #expect(try hive.resolve(Reader.self) === first, "converted, then cached beside the forward") }

        hive.resetInstances(in: .session)
        #expect(first == nil, "the forwarded key's cache must not keep the reset instance alive")
        let second = try hive.resolve(Reader.self)
        #expect(try second === hive.resolve(LiveStore.self))

        hive.resetInstances(of: LiveStore.self)
        let third = try hive.resolve(LiveStore.self)
        #expect(third !== second)
        #expect(try hive.resolve(Reader.self) === third)
    }

    @Test("a forwarded key resolved before an override of its target follows the override, and returns after it")
    func cachedThenOverridden() throws {
        let hive = try store()
        let live = try hive.resolve(Reader.self)
        #expect(try hive.resolve(Reader.self) === live)
        let mock = LiveStore()
        try hive.withOverrides {
            $0.register(LiveStore.self, instance: mock)
        } operation: {
            let reader = try hive.resolve(Reader.self)
            #expect(reader === mock)
        }
        try hive.withOverrides {
            $0.register(Writer.self) { LiveStore() }
        } operation: {
            let reader = try hive.resolve(Reader.self)
            #expect(reader === live, "an override of something else leaves it shared")
        }
        #expect(try hive.resolve(Reader.self) === live)
    }

    @Test("a forwarded key resolved on many threads while its target is reset always returns a current target")
    func concurrentReset() async throws {
        for round in 0..<20 {
            let hive = try store()
            // Each resolve must succeed, and return an instance of the target: a resolve that throws fails the test.
            let resolved = try await onThreads(4, "round \(round)") { index in
                var resolved = 0
                for _ in 0..<300 {
                    if index == 0 {
                        hive.resetInstances(of: LiveStore.self)
                    } else {
                        let reader = try hive.resolve(Reader.self)
                        if reader is LiveStore { resolved += 1 }
                    }
                }
                return resolved
            }
            #expect(resolved == [0, 300, 300, 300], "round \(round): every resolve returned a LiveStore")
            // Whatever the interleaving, once the resets stop the forwarded key and its target agree.
            #expect(try hive.resolve(Reader.self) === hive.resolve(LiveStore.self))
        }
    }

    @Test("a child that registers its own target resolves a parent's forwarded key to it, cached in the parent or not")
    func childShadowsTarget() throws {
        let parent = try store()
        let child = ServiceHive(parent: parent)
        let own = LiveStore()
        try child.register(LiveStore.self, instance: own)
        #expect(try child.resolve(Reader.self) === own, "nothing cached in the parent yet")
        let parentStore = try parent.resolve(LiveStore.self)
        #expect(try parent.resolve(Reader.self) === parentStore)
        for _ in 0..<2 { #expect(try child.resolve(Reader.self) === own, "with the parent's forward cached") }
        #expect(try ServiceHive(parent: parent).resolve(Reader.self) === parentStore, "a child that does not shadow it")
    }

    @Test("a forwarded key collides with a registration of its own like any duplicate")
    func duplicate() throws {
        let hive = try store()
        #expect(throws: ServiceHiveError.self) { try hive.register(Reader.self) { MockReader() } }
    }
}
