import ServiceHive
import Support
import Testing

/// A protocol that is not `Sendable`, so `any Notepad & Sendable` and `any Notepad` are different types to the
/// compiler, and one type at run time.
protocol Notepad: AnyObject {
    var lines: [String] { get set }
}

/// Not `Sendable`: a class with mutable state and no lock.
final class PlainNotepad: Notepad {
    var lines: [String] = []
}

/// `Sendable`: it only holds an immutable value.
final class FrozenNotepad: Notepad, Sendable {
    let frozen: [String]
    init(_ lines: [String]) { frozen = lines }
    var lines: [String] {
        get { frozen }
        set {}
    }
}

/// Registers a service through generic code that does not know whether it is `Sendable`.
func registerGenerically<Service>(
    _ service: Service.Type, in hive: ServiceHive, _ make: @escaping @Sendable () -> Service
)
    throws
{
    try hive.register(Service.self, factory: make)
}

@Suite("A service resolved as Sendable is one registered as Sendable", .timeLimit(.minutes(5)))
struct SendableTests {
    @Test("resolving any P & Sendable refuses a registration of any P, and says how to fix it")
    func refusesUnsure() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad).self) { PlainNotepad() }
        let error = error { _ = try hive.resolve((any Notepad & Sendable).self) }
        guard case .notSendable(let key, chain: [])? = error else {
            Issue.record("expected notSendable, got \(String(describing: error))")
            return
        }
        #expect(key.service == "Notepad")
        #expect(
            "\(error!)"
                == "Notepad is resolved as a Sendable type, but was registered where it was not known to be Sendable, "
                + "so its instances may not be. To fix, if they are Sendable, register it where the compiler knows: "
                + "as (any Notepad & Sendable).self, or from generic code constrained to Sendable; if they are not, "
                + "resolve it without & Sendable.")
        // The registration itself still resolves as what it is.
        #expect(try hive.resolve((any Notepad).self) is PlainNotepad)
    }

    @Test("a registration of any P & Sendable resolves as both any P and any P & Sendable")
    func sendableRegistrationServesBoth() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad & Sendable).self, scope: .singleton) { FrozenNotepad(["a"]) }
        let sendable = try hive.resolve((any Notepad & Sendable).self)
        let plain = try hive.resolve((any Notepad).self)
        #expect(sendable === plain)
        #expect(plain.lines == ["a"])
    }

    @Test("any P and any P & Sendable share one key, so registering both is a duplicate")
    func oneKey() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad & Sendable).self) { FrozenNotepad([]) }
        let error = error { try hive.register((any Notepad).self) { PlainNotepad() } }
        guard case .alreadyRegistered? = error else {
            Issue.record("expected alreadyRegistered, got \(String(describing: error))")
            return
        }
    }

    @Test("every way of resolving as Sendable refuses an unsure registration: a resolver, arguments, async, Optional")
    func everyPath() async throws {
        let hive = ServiceHive()
        try hive.register((any Notepad).self, scope: .singleton) { PlainNotepad() }
        try hive.register((any Notepad).self, name: "argued") { (_: ServiceHive.Resolver, line: String) in
            let notepad = PlainNotepad()
            notepad.lines = [line]
            return notepad
        }
        try hive.register(String.self) { r in
            let notepad = try r.resolve((any Notepad & Sendable).self)
            return notepad.lines.joined()
        }
        let fromResolver = error { _ = try hive.resolve(String.self) }
        #expect(
            fromResolver.map { if case .notSendable(_, chain: let chain) = $0 { chain.count == 1 } else { false } }
                == true)
        let withArguments = error {
            _ = try hive.resolve((any Notepad & Sendable).self, name: "argued", arguments: "x")
        }
        #expect(withArguments.map { if case .notSendable = $0 { true } else { false } } == true)
        let awaited = await asyncError { _ = try await hive.resolveAsync((any Notepad & Sendable).self) }
        #expect(awaited.map { if case .notSendable = $0 { true } else { false } } == true)
        let optional = error { _ = try hive.resolve((any Notepad & Sendable)?.self) }
        #expect(optional.map { if case .notSendable = $0 { true } else { false } } == true)
        // Resolved already as `any Notepad`, the singleton is cached; the refusal does not depend on that.
        _ = try hive.resolve((any Notepad).self)
        let cached = error { _ = try hive.resolve((any Notepad & Sendable).self) }
        #expect(cached.map { if case .notSendable = $0 { true } else { false } } == true)
    }

    @Test("Lazy, Provider and the wrappers of a Sendable service refuse an unsure registration too")
    func deferred() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad).self) { PlainNotepad() }
        let lazy = try hive.resolve(ServiceHive.Lazy<any Notepad & Sendable>.self)
        let provider = try hive.resolve(ServiceHive.Provider<any Notepad & Sendable>.self)
        let injected = ServiceHive.Injected<any Notepad & Sendable>(hive: hive)
        let lazyInjected = ServiceHive.LazyInjected<any Notepad & Sendable>(hive: hive)
        for attempt in [
            { _ = try lazy.instance }, { _ = try provider.instance }, { _ = try injected.instance },
            { _ = try lazyInjected.instance },
        ] as [() throws -> Void] {
            let error = error(from: attempt)
            #expect(error.map { if case .notSendable = $0 { true } else { false } } == true)
        }
        // The same wrappers of `any Notepad` resolve it.
        #expect(try hive.resolve(ServiceHive.Lazy<any Notepad>.self).instance is PlainNotepad)
        #expect(try ServiceHive.Injected<any Notepad>(hive: hive).instance is PlainNotepad)
    }

    @Test("an override of any P does not answer a resolve of any P & Sendable")
    func overrides() throws {
        let hive = ServiceHive()
        try hive.register((any Notepad & Sendable).self) { FrozenNotepad(["live"]) }
        try hive.withOverrides {
            $0.register((any Notepad).self) { PlainNotepad() }
        } operation: {
            let refused = error { _ = try hive.resolve((any Notepad & Sendable).self) }
            #expect(refused.map { if case .notSendable = $0 { true } else { false } } == true)
            let plain = try hive.resolve((any Notepad).self)
            #expect(plain is PlainNotepad)
        }
        try hive.withOverrides {
            $0.register((any Notepad & Sendable).self) { FrozenNotepad(["mock"]) }
        } operation: {
            let mock = try hive.resolve((any Notepad & Sendable).self)
            #expect(mock.lines == ["mock"])
        }
    }

    @Test("child provisions, forwards and instances record what they knew")
    func otherRegistrations() throws {
        let hive = ServiceHive()
        try hive.register(FrozenNotepad.self, instance: FrozenNotepad(["i"]))
        try hive.forward((any Notepad & Sendable).self, to: FrozenNotepad.self) { $0 }
        #expect(try hive.resolve((any Notepad & Sendable).self).lines == ["i"])
        let child = hive.child { $0.provide((any Notepad).self, name: "plain", PlainNotepad()) }
        let error = error { _ = try child.resolve((any Notepad & Sendable).self, name: "plain") }
        #expect(error.map { if case .notSendable = $0 { true } else { false } } == true)
        let sendableChild = hive.child {
            $0.provide((any Notepad & Sendable).self, name: "frozen", FrozenNotepad(["f"]))
        }
        #expect(try sendableChild.resolve((any Notepad & Sendable).self, name: "frozen").lines == ["f"])
    }

    @Test("concrete types are never refused, however they were registered")
    func concreteTypes() throws {
        let hive = ServiceHive()
        try registerGenerically(Int.self, in: hive) { 42 }
        try registerGenerically(FrozenNotepad.self, in: hive) { FrozenNotepad(["g"]) }
        #expect(try hive.resolve(Int.self) == 42)
        #expect(try hive.resolve(FrozenNotepad.self).lines == ["g"])
    }

    @Test("an existential registered by unconstrained generic code is unsure, even of a Sendable protocol")
    func genericExistential() throws {
        let hive = ServiceHive()
        try registerGenerically((any Reader).self, in: hive) { MockReader() }
        let error = error { _ = try hive.resolve((any Reader).self) }
        #expect(error.map { if case .notSendable = $0 { true } else { false } } == true)
        // Registered from code that knows, it resolves.
        let known = ServiceHive()
        try known.register((any Reader).self) { MockReader() }
        #expect(try known.resolve((any Reader).self).read() == "mock")
    }
}
