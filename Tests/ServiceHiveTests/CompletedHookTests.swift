import ServiceHive
import Support
import Testing

/// Two objects of one graph that point at each other.
final class Parent: Sendable {
    let child = Locked<Child?>(nil)
}

final class Child: Sendable {
    weak let parent: Parent?
    init(parent: Parent) { self.parent = parent }
}

@Suite("Post-construction hooks", .timeLimit(.minutes(5)))
struct CompletedHookTests {
    @Test("in one graph, a parent and a child point at each other")
    func graph() throws {
        let hive = ServiceHive()
        try hive.register(Parent.self, scope: .graph) { _ in
            Parent()
        } completed: { r, parent in
            let child = try r.resolve(Child.self)
            parent.child.withLock { $0 = child }
        }
        try hive.register(Child.self) { r in Child(parent: try r.resolve()) }
        let parent = try hive.resolve(Parent.self)
        #expect(parent.child.current?.parent === parent)
    }

    @Test("a singleton's hook sees the singleton, and other threads wait until the hook is done")
    func singleton() async throws {
        let hive = ServiceHive()
        let hooks = Locked(0)
        try hive.register(Parent.self, scope: .singleton) { _ in
            Parent()
        } completed: { r, parent in
            hooks.increment()
            pause(milliseconds: 5)
            let child = try r.resolve(Child.self)
            parent.child.withLock { $0 = child }
        }
        try hive.register(Child.self) { r in Child(parent: try r.resolve()) }
        // Each thread returns the parent it resolved, and whether its hook had run when the thread got it.
        let seen = try await onThreads(6) { _ in
            let parent = try hive.resolve(Parent.self)
            return (parent: ObjectIdentifier(parent), hooked: parent.child.current?.parent === parent)
        }
        #expect(seen.allSatisfy { $0.hooked }, "no thread sees the singleton before its hook is done")
        #expect(Set(seen.map(\.parent)).count == 1)
        #expect(hooks.current == 1)
    }

    @Test("a hook that throws fails the resolve with factoryFailed naming the hook, and caches nothing")
    func failure() throws {
        let hive = ServiceHive()
        let attempts = Locked(0)
        try hive.register(Parent.self, scope: .singleton) { _ in
            Parent()
        } completed: { _, _ in
            if attempts.increment() == 1 { throw DatabaseOffline() }
        }
        let thrown = error { _ = try hive.resolve(Parent.self) }
        #expect(
            thrown?.description
                == "The post-construction hook of Parent threw: database offline. To fix, make the hook succeed; "
                + "nothing was cached, so the next resolve runs the factory and the hook again.")
        let parent = try hive.resolve(Parent.self)
        #expect(try hive.resolve(Parent.self) === parent)
        #expect(attempts.current == 2)
    }

    @Test("a transient's hook runs on every instance")
    func transient() throws {
        let hive = ServiceHive()
        let hooks = Locked(0)
        try hive.register(Clock.self) {
            SystemClock()
        } completed: { _, _ in
            hooks.increment()
        }
        _ = try hive.resolve(Clock.self)
        _ = try hive.resolve(Clock.self)
        #expect(hooks.current == 2)
    }
}
