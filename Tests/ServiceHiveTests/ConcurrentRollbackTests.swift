import ServiceHive
import Support
import Testing

// Two installs that run at the same time and both fail leave the hive as it was before either: each rollback
// restores what its install removed, in its place, unless the place holds what another install put there since. When
// that other install fails too, its rollback restores what was there before both.

/// A module that takes over the contribution named `shared` and the plain registration of `HealthCheck` in
/// `register(in:)`, with its own, then tells the test, and fails in `start(in:)` when the test says.
private struct TakeoverModule: ServiceModule {
    let name: String
    let registered = Gate()
    let fail = Gate()

    func register(in hive: ServiceHive) throws {
        let label = name
        hive.removeContribution(HealthCheck.self, name: "shared")
        try hive.contribute(HealthCheck.self, name: "shared") { LabelledCheck(label) }
        hive.unregister(HealthCheck.self)
        try hive.register(HealthCheck.self) { LabelledCheck(label) }
    }

    func start(in hive: ServiceHive) async throws {
        registered.open()
        try await fail.opened("the test to fail \(name)")
        throw DatabaseOffline()
    }
}

@Suite("Rollbacks of failed installs that run at the same time", .timeLimit(.minutes(5)))
struct ConcurrentRollbackTests {
    /// The hive with a contribution `base` named `shared` between two others, and `base` registered as the plain
    /// `HealthCheck`.
    private func makeHive() throws -> ServiceHive {
        let hive = ServiceHive()
        try hive.contribute(HealthCheck.self, name: "first") { LabelledCheck("first") }
        try hive.contribute(HealthCheck.self, name: "shared") { LabelledCheck("base") }
        try hive.contribute(HealthCheck.self, name: "last") { LabelledCheck("last") }
        try hive.register(HealthCheck.self) { LabelledCheck("base") }
        return hive
    }

    /// Installs X, then, once X has taken over, Y, which takes over from X; fails them in the order given; and returns
    /// the collection and the plain registration afterwards.
    private func failBoth(firstToFail: String) async throws -> (collection: [String], plain: String) {
        let hive = try makeHive()
        let x = TakeoverModule(name: "X")
        let y = TakeoverModule(name: "Y")
        let installX = Task(priority: .high) { try await hive.install(x) }
        try await x.registered.opened("X to register")
        let installY = Task(priority: .high) { try await hive.install(y) }
        try await y.registered.opened("Y to register")
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["first", "last", "Y"])
        let (first, second) = firstToFail == "X" ? ((x, installX), (y, installY)) : ((y, installY), (x, installX))
        for (module, install) in [first, second] {
            module.fail.open()
            await #expect(throws: ServiceHiveError.self, "\(module.name) fails") {
                try await within("\(module.name)'s install to fail") { try await value(of: install) }
            }
        }
        return (try hive.resolveAll(HealthCheck.self).labels, try hive.resolve(HealthCheck.self).label)
    }

    @Test(
        "two installs that take over the same contribution and registration both fail, in either order: the hive is as before both",
        arguments: ["X", "Y"])
    func bothFail(firstToFail: String) async throws {
        let (collection, plain) = try await failBoth(firstToFail: firstToFail)
        #expect(collection == ["first", "base", "last"], "base is back in its place, and no other 'shared' is left")
        #expect(plain == "base")
    }

    @Test("a rollback leaves alone what a change outside the install put in the place of what it removed")
    func laterInstallSucceeds() async throws {
        let hive = try makeHive()
        let x = TakeoverModule(name: "X")
        let installX = Task(priority: .high) { try await hive.install(x) }
        try await x.registered.opened("X to register")
        // A plain change, outside any install, after X's: X's rollback does not undo it.
        #expect(hive.removeContribution(HealthCheck.self, name: "shared"))
        try hive.contribute(HealthCheck.self, name: "shared") { LabelledCheck("Z") }
        #expect(hive.unregister(HealthCheck.self))
        try hive.register(HealthCheck.self) { LabelledCheck("Z") }
        x.fail.open()
        await #expect(throws: ServiceHiveError.self) {
            try await within("X's install to fail") { try await value(of: installX) }
        }
        #expect(try hive.resolveAll(HealthCheck.self).labels == ["first", "last", "Z"])
        #expect(try hive.resolve(HealthCheck.self).label == "Z")
    }
}
