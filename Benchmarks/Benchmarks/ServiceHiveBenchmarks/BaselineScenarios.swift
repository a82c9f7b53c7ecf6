import Benchmark
import ServiceHiveBaseline

// Issue 11's promise, "resolving outside any scope is no slower than before", measured in the same run: scenarios
// 01–04 resolved by `before`, the library as it was on main before the rework (the `ServiceHiveBaseline` target),
// from a hive with the same registrations as `Hives.standard`. This file imports no other locator, so that
// `ServiceHive` here is the baseline's.

func baselineScenarios() {
    Scenario.transientResolve.measure(.before) { benchmark in
        let hive = BaselineHives.standard
        repeatedly(benchmark) { try! hive.resolve(Transient.self) }
    }
    Scenario.singletonResolve.measure(.before) { benchmark in
        let hive = BaselineHives.standard
        repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
    }
    Scenario.threeDependencies.measure(.before) { benchmark in
        let hive = BaselineHives.standard
        repeatedly(benchmark) { try! hive.resolve(Composite.self) }
    }
    Scenario.namedResolve.measure(.before) { benchmark in
        let hive = BaselineHives.standard
        repeatedly(benchmark) { try! hive.resolve(Named.self, name: "special") }
    }
}

/// The baseline library's hive, with the registrations of `Hives.standard`.
enum BaselineHives {
    static let standard: ServiceHive = {
        let hive = ServiceHive()
        try! hive.register(Transient.self) { LiveTransient() }
        try! hive.register(Singleton.self, scope: .singleton) { LiveSingleton() }
        try! hive.register(DependencyA.self, scope: .singleton) { LiveDependencyA() }
        try! hive.register(DependencyB.self, scope: .singleton) { LiveDependencyB() }
        try! hive.register(DependencyC.self, scope: .singleton) { LiveDependencyC() }
        try! hive.register(Composite.self) { r in
            LiveComposite(a: try r.resolve(), b: try r.resolve(), c: try r.resolve())
        }
        try! hive.register(Named.self, name: "special") { LiveNamed() }
        try! hive.register(Greeting.self) { (_: ServiceHive.Resolver, count: Int) in LiveGreeting(count: count) }
        try! hive.register(Greeting.self) { (_: ServiceHive.Resolver, count: Int, name: String) in
            LiveGreeting(count: count, name: name)
        }
        try! hive.register(Leaf.self, scope: .graph) { LiveLeaf() }
        try! hive.register(Branch.self) { r in LiveBranch(leaf: try r.resolve()) }
        try! hive.register(Root.self) { r in LiveRoot(left: try r.resolve(), right: try r.resolve()) }
        try! hive.register(RequestHandler.self) { r in LiveRequestHandler(session: try r.resolve()) }
        _ = try! hive.resolve(Singleton.self)
        return hive
    }()
}
