import Support
import Testing

@testable import ServiceHive

// The engine's claim of a shared instance's slot, driven step by step: the window between a resolve's lookup and its
// claim, in which another task may publish an instance, is too short to hit reliably from the public API.

private protocol Ledger: Sendable { var label: String { get } }
private struct LiveLedger: Ledger { let label = "live" }
private struct MockLedger: Ledger { let label = "mock" }

private final class Accounts: Sendable {
    let ledger: any Ledger
    init(ledger: any Ledger) { self.ledger = ledger }
}

@Suite("Claiming a shared instance's slot", .timeLimit(.minutes(5)))
struct SlotClaimTests {
    private func hive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.register(Ledger.self) { LiveLedger() }
        try hive.register(Accounts.self, scope: .singleton) { r in Accounts(ledger: try r.resolve(Ledger.self)) }
        return hive
    }

    @Test(
        "an instance published after the lookup, built from what this task overrides, is left to the overriding layer")
    func publishedMeanwhile() async throws {
        let hive = try hive()
        try await hive.withOverrides {
            $0.register(Ledger.self) { MockLedger() }
        } operation: {
            var layers = Layers.unread
            let read = layers.read()
            let stack = try #require(read)
            let key = RegistrationKey(Accounts.self, name: nil)
            guard case .found(let found) = hive.core.lookUp(key, layers: &layers, argumentsMatch: { _ in true }) else {
                Issue.record("the lookup did not find Accounts")
                return
            }
            #expect(found.instance == nil, "nothing is cached yet")
            // Meanwhile, a thread, which sees none of this task's overrides, builds the live instance and publishes it
            // beside the registration.
            let published = try await onThreads(1, "the live resolve") { _ in try hive.resolve(Accounts.self) }
            #expect(published.map(\.ledger.label) == ["live"])

            let location = Location.registry(hive.core.lineage[found.depth])
            switch hive.core.claim(found, at: location, claimant: nil, layers: &layers) {
            case .elsewhere(let layer): #expect(layer === stack)
            case .instance(let instance): Issue.record("the live instance was taken: \(instance)")
            case .claimed, .building: Issue.record("the slot was not found holding the live instance")
            }
            #expect(try hive.resolve(Accounts.self).ledger.label == "mock")
        }
        #expect(try hive.resolve(Accounts.self).ledger.label == "live")
    }

    @Test("a layer keeps no slot for a shared instance whose factory failed")
    func failedBuildLeavesNoSlot() throws {
        struct Refused: Error {}
        let hive = try hive()
        try hive.withOverrides {
            $0.register(Ledger.self) { MockLedger() }
            $0.register(Accounts.self, scope: .singleton) { () throws -> Accounts in throw Refused() }
        } operation: {
            var layers = Layers.unread
            let read = layers.read()
            let stack = try #require(read)
            for _ in 0..<3 {
                #expect(throws: ServiceHiveError.self) { try hive.resolve(Accounts.self) }
            }
            #expect(stack.instances.withLock { $0.count } == 0)
        }
    }
}
