import ServiceHive
import ServiceHiveFunctions
import Support
import Testing

/// A module that registers the count function, as an owning module would.
struct CountModule: ServiceModule {
    var name: String { "Counts" }

    func register(in hive: ServiceHive) throws {
        try hive.register(function: .count) { _ in countFunction(current: { 5 }) }
    }
}

/// A service the count function needs in some tests, and nobody registers.
protocol CountSource: Sendable {
    var count: Int { get }
}

@Suite("Functions come from the hive", .timeLimit(.minutes(5)))
@MainActor
struct LookupTests {
    @Test("an installed module's function is found by key, and listed with its module and file:line")
    func foundThroughTheHive() async throws {
        let hive = ServiceHive()
        try await hive.install(CountModule())
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        try center.attach(badge, to: .count)
        #expect(badge.shown == [5])
        let registration = try #require(hive.registrations.first)
        #expect(hive.registrations.count == 1)
        #expect(
            registration.description
                == "BusinessFunction<Badge, Int> (name: \"test.count\"), singleton, module Counts, "
                + "at ServiceHiveFunctionsTests/LookupTests.swift:11")
    }

    @Test("the center looks a function up once, when the first control joins, and keeps it")
    func lookedUpOnce() throws {
        let hive = ServiceHive()
        let builds = Locked(0)
        try hive.register(BusinessFunction<Badge, Int>.self, name: "test.count") {
            builds.increment()
            return countFunction()
        }
        let center = FunctionCenter(hive: hive)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(builds.current == 0, "a post to a key nobody attached to needs no function")
        let badges = [Badge(), Badge(), Badge()]
        for badge in badges { try center.attach(badge, to: .count) }
        #expect(builds.current == 1)
        hive.unregister(BusinessFunction<Badge, Int>.self, name: "test.count")
        try center.attach(Badge(), to: .count)
        center.post(2, to: .count)
        center.deliverPending()
        #expect(builds.current == 1)
        #expect(badges.map(\.shown) == [[1, 2], [1, 2], [1, 2]])
    }

    @Test("validate() builds every function, and reports one whose dependency is missing")
    func validated() throws {
        let hive = ServiceHive()
        try hive.register(function: .count) { r in
            let source = try r.resolve(CountSource.self)
            return countFunction(current: { source.count })
        }
        let report = hive.validate()
        #expect(report.failures.count == 1)
        #expect(
            report.failures.first?.description
                == "FAILED BusinessFunction<Badge, Int> (name: \"test.count\"), singleton, "
                + "at ServiceHiveFunctionsTests/LookupTests.swift:65: CountSource is not registered (needed by "
                + "BusinessFunction<Badge, Int> (name: \"test.count\")). To fix, register it before resolving: "
                + "try hive.register(CountSource.self) { … }")
    }

    @Test("inside withOverrides a new center finds the overriding function; outside, the real one")
    func overridden() throws {
        let hive = try countHive(current: 1)
        let mocked = Badge()
        try hive.withOverrides {
            $0.register(function: .count) { _ in countFunction(current: { 99 }) }
        } operation: {
            let center = FunctionCenter(hive: hive)
            try center.attach(mocked, to: .count)
            center.post(100, to: .count)
            center.deliverPending()
        }
        #expect(mocked.shown == [99, 100])
        let real = Badge()
        try FunctionCenter(hive: hive).attach(real, to: .count)
        #expect(real.shown == [1])
    }

    @Test("a center keeps the function it found inside withOverrides after the operation ends")
    func keptAfterOverrides() throws {
        let hive = try countHive(current: 1)
        let center = FunctionCenter(hive: hive)
        try hive.withOverrides {
            $0.register(function: .count) { _ in
                BusinessFunction { badge, count, _ in badge.shown.append(count * 10) }
            }
        } operation: {
            try center.attach(Badge(), to: .count)
        }
        let badge = Badge()
        try center.attach(badge, to: .count)
        center.post(2, to: .count)
        center.deliverPending()
        #expect(badge.shown == [20])
    }

    @Test("a key without a function throws an error that names the key and the module that should provide it")
    func missingFunction() throws {
        let center = FunctionCenter(hive: ServiceHive())
        let badge = Badge()
        let key = FunctionKey<Badge, Int>("test.missing")
        let line = #line - 1
        #expect {
            try center.attach(badge, to: key)
        } throws: { error in
            guard
                case .notRegistered(let key, let declaredAt, .notRegistered(let service, let chain))? =
                    error as? FunctionError
            else { return false }
            return key == "test.missing (Badge, Int)"
                && declaredAt == "ServiceHiveFunctionsTests/LookupTests.swift:\(line)"
                && service == ServiceHive.ServiceKey(BusinessFunction<Badge, Int>.self, name: "test.missing")
                && chain.isEmpty
                && "\(error)"
                    == "No function is registered for test.missing (Badge, Int). Its key is declared at "
                    + "ServiceHiveFunctionsTests/LookupTests.swift:\(line), so a module of ServiceHiveFunctionsTests should "
                    + "register it. To fix, install that module in the hive before attaching, or register a "
                    + "function: try hive.register(function: key) { … }"
        }
        #expect(center.controls(of: key).isEmpty)
    }

    @Test("a failed lookup leaves the control attached where it was")
    func failedMoveChangesNothing() throws {
        let center = FunctionCenter(hive: try countHive())
        let badge = Badge()
        try center.attach(badge, to: .count)
        #expect(throws: FunctionError.self) { try center.attach(badge, to: .other) }
        #expect(center.controls(of: .count).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)])
        center.post(3, to: .count)
        center.deliverPending()
        #expect(badge.shown == [3])
    }

    @Test("a function whose factory fails gives the hive's error, keeps nothing, and is tried again on the next attach")
    func failingFactory() throws {
        let hive = ServiceHive()
        let attempts = Locked(0)
        try hive.register(function: .count) { r in
            if attempts.increment() == 1 { _ = try r.resolve(CountSource.self) }
            return countFunction(current: { 4 })
        }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        #expect {
            try center.attach(badge, to: .count)
        } throws: { error in
            guard case .unavailable(let key, .notRegistered)? = error as? FunctionError else { return false }
            return key == "test.count (Badge, Int)"
                && "\(error)"
                    == "The function for test.count (Badge, Int) could not be built: CountSource is not registered "
                    + "(needed by BusinessFunction<Badge, Int> (name: \"test.count\")). To fix, register it before "
                    + "resolving: try hive.register(CountSource.self) { … }"
        }
        try center.attach(badge, to: .count)
        #expect(badge.shown == [4])
    }

    @Test("inside a strict withOverrides, a function that is not overridden is unavailable, and the error says so")
    func strictOverrides() throws {
        let hive = try countHive()
        hive.withOverrides(strict: true) { _ in
        } operation: {
            let center = FunctionCenter(hive: hive)
            #expect {
                try center.attach(Badge(), to: .count)
            } throws: { error in
                guard case .unavailable(_, .notOverridden)? = error as? FunctionError else { return false }
                return "\(error)".hasPrefix(
                    "The function for test.count (Badge, Int) could not be built: BusinessFunction<Badge, Int> "
                        + "(name: \"test.count\") is not overridden in this strict withOverrides.")
            }
        }
    }
}
