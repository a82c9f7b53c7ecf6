import ServiceHive

// The registrations every scenario resolves from. `ThreadScaling` links this file, as it links `Services.swift` and
// `Direct.swift`, so that its threads resolve the same services, registered the same way, as the benchmarks.

enum StandardRegistrations {
    /// A new hive with every scenario's registrations, its singleton already built.
    static func hive() -> ServiceHive {
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
        // Resolved from a child hive that provides the request's `Session`.
        try! hive.register(RequestHandler.self) { r in LiveRequestHandler(session: try r.resolve()) }
        _ = try! hive.resolve(Singleton.self)
        return hive
    }
}
