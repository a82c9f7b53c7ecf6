import ServiceHive

// The hives of the scenarios of registration by initializer (29) and of the check (30): the same services as
// `makeHive()`'s, registered by initializer, and a thousand registrations that declare their dependencies.

enum DeclaredFixtures {
    /// `Transient`, `Singleton` and `Composite` (three singleton dependencies), registered by initializer: the
    /// counterpart of the closures of scenarios 01, 02 and 03.
    static func initializerHive() -> ServiceHive {
        let hive = ServiceHive()
        try! hive.register(Transient.self, initializer: LiveTransient.init)
        try! hive.register(Singleton.self, scope: .singleton, initializer: LiveSingleton.init)
        try! hive.register(DependencyA.self, scope: .singleton, initializer: LiveDependencyA.init)
        try! hive.register(DependencyB.self, scope: .singleton, initializer: LiveDependencyB.init)
        try! hive.register(DependencyC.self, scope: .singleton, initializer: LiveDependencyC.init)
        try! hive.register(Composite.self, initializer: LiveComposite.init)
        _ = try! hive.resolve(Singleton.self)
        _ = try! hive.resolve(Composite.self)
        return hive
    }

    /// `count` registrations that declare their dependencies: the four of `Composite`, by initializer, and
    /// `count - 4` singleton variants of `Named`, each of which declares `Composite` and its parent in a binary tree,
    /// so that the check follows every link and validation builds a tree ten levels deep.
    static func declaredHive(count: Int) -> ServiceHive {
        let hive = ServiceHive()
        try! hive.register(DependencyA.self, scope: .singleton, initializer: LiveDependencyA.init)
        try! hive.register(DependencyB.self, scope: .singleton, initializer: LiveDependencyB.init)
        try! hive.register(DependencyC.self, scope: .singleton, initializer: LiveDependencyC.init)
        try! hive.register(Composite.self, initializer: LiveComposite.init)
        for index in 0..<(count - 4) {
            let parent = index == 0 ? nil : "declared-\((index - 1) / 2)"
            let dependencies: [ServiceHive.Dependency] =
                [.on(Composite.self)] + (parent.map { [.on(Named.self, name: $0)] } ?? [])
            try! hive.register(Named.self, name: "declared-\(index)", scope: .singleton, dependsOn: dependencies) {
                r in
                _ = try r.resolve(Composite.self)
                if let parent { _ = try r.resolve(Named.self, name: parent) }
                return LiveNamed()
            }
        }
        return hive
    }
}
