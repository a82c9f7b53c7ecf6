import Foundation
import ServiceHive
import Support
import Testing

// The code of the article "Threading Guarantees", compiled and run here, and the article's other promises that a
// short test can show. `DocumentationSnippetTests` checks that the article and these regions stay the same; the full
// concurrency tests are in `Tests/ServiceHiveTests`.

/// The article's types, in a namespace of their own so that they don't clash with the README's.
enum ThreadingArticle {
    /// A pool that takes a while to open, and counts how often it was opened.
    final class ConnectionPool: Sendable {
        static let opened = Locked(0)

        static func open() async throws -> ConnectionPool {
            opened.increment()
            try await Task.sleep(for: .milliseconds(20))
            return ConnectionPool()
        }
    }

    final class Ledger: Sendable {}
    final class Auditor: Sendable {}
}

extension ThreadingArticle {
    @Suite("Threading Guarantees", .timeLimit(.minutes(5)))
    struct Tests {
        @Test("an async singleton asked for by a hundred tasks at once is opened once and shared")
        func asyncSingleton() async throws {
            let hive = ServiceHive()
            let openedBefore = ConnectionPool.opened.current
            let pools = try await within("a hundred tasks to get the pool") {
                // snippet: threading-async
                try hive.register(ConnectionPool.self, scope: .singleton) { _ async throws in
                    try await ConnectionPool.open()
                }

                let pools = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<100 {
                        group.addTask { ObjectIdentifier(try await hive.resolveAsync(ConnectionPool.self)) }
                    }
                    return try await group.reduce(into: Set()) { $0.insert($1) }
                }
                print(pools.count)  // 1: opened once, and shared by all hundred tasks
                // end-snippet
                return pools
            }
            #expect(pools.count == 1)
            #expect(ConnectionPool.opened.current == openedBefore + 1)
        }

        @Test("two threads that enter a cycle of singletons from opposite ends both get circularDependency")
        func crossingCycle() async throws {
            let hive = ServiceHive()
            try hive.register(Ledger.self, scope: .singleton) { r in
                pause(milliseconds: 50)  // both threads are inside their first factory before either goes on
                _ = try r.resolve(Auditor.self)
                return Ledger()
            }
            try hive.register(Auditor.self, scope: .singleton) { r in
                pause(milliseconds: 50)
                _ = try r.resolve(Ledger.self)
                return Auditor()
            }
            // Past the wait's limit, a deadlock fails the test.
            let outcomes = try await onThreads(2, "the two resolves") { index in
                Result<Void, any Error> {
                    if index == 0 { _ = try hive.resolve(Ledger.self) } else { _ = try hive.resolve(Auditor.self) }
                }
            }
            for outcome in outcomes {
                guard case .failure(ServiceHiveError.circularDependency) = outcome else {
                    Issue.record("expected circularDependency, got \(outcome)")
                    continue
                }
            }
        }

        @Test("a resolve that would leave too little stack fails with stackExhausted, and the thread goes on")
        func stackGuard() async throws {
            let hive = ServiceHive()
            for level in 0..<1_000 {
                try hive.register(Ledger.self, name: "\(level)") { r in
                    try level == 999 ? Ledger() : r.resolve(Ledger.self, name: "\(level + 1)")
                }
            }
            let outcome = try await onThreads(1, stackSize: 512 << 10) { _ in
                Result { try hive.resolve(Ledger.self, name: "0") }
            }[0]
            guard case .failure(ServiceHiveError.stackExhausted(_, let chain)) = outcome else {
                Issue.record("expected stackExhausted, got \(outcome)")
                return
            }
            #expect(chain.count > 10 && chain.count < 1_000)
            _ = try hive.resolve(Ledger.self, name: "990")  // the thread unwound cleanly: the hive still resolves
        }
    }
}
