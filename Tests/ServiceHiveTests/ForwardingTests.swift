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

@Suite("Forwarding one registration to several protocols")
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
            try $0.register(Reader.self) { MockReader() }
        } operation: {
            let reader = try hive.resolve(Reader.self)
            #expect(reader.read() == "mock")
            #expect(try hive.resolve(Writer.self) === hive.resolve(LiveStore.self), "the other forward is untouched")
        }
        let mock = LiveStore()
        mock.write("overridden target")
        try hive.withOverrides {
            try $0.register(LiveStore.self, instance: mock)
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

    @Test("a forwarded key collides with a registration of its own like any duplicate")
    func duplicate() throws {
        let hive = try store()
        #expect(throws: ServiceHiveError.self) { try hive.register(Reader.self) { MockReader() } }
    }
}
