import ServiceHive

// The hives and the module of the scenarios at scale (04b, 07b, 09, 25, 26), and the collection of 28.
// `InstructionCounts` links this file, as it links `Services.swift`, so that a count and a wall time measure the same
// setup.

/// Registers each type into a hive as a transient.
struct HiveRegistrar: TypeRegistrar {
    let hive: ServiceHive
    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        let make = UncheckedFactory(make)
        try! hive.register(T.self) { make.make() }
    }
}

/// A factory closure ServiceHive can store: these generated types are plain values.
struct UncheckedFactory<T>: @unchecked Sendable {
    // Sendable: the closure captures nothing mutable; it builds an empty struct.
    let make: () -> T
    init(_ make: @escaping () -> T) { self.make = make }
}

enum ScaleFixtures {
    /// A hive with `count - 1` distinct transients and the singleton, already built.
    static func hive(withSingletonAmong count: Int) -> ServiceHive {
        var registrar = HiveRegistrar(hive: ServiceHive())
        registerDistinctTypes(count - 1, into: &registrar)
        try! registrar.hive.register(Singleton.self, scope: .singleton) { LiveSingleton() }
        _ = try! registrar.hive.resolve(Singleton.self)
        return registrar.hive
    }

    /// A hive with `count` contributions to the collection of `Plugin`, each a singleton, resolved and cached.
    static func hive(withContributions count: Int) -> ServiceHive {
        let hive = ServiceHive()
        for _ in 0..<count {
            try! hive.contribute(Plugin.self, scope: .singleton) { LivePlugin() }
        }
        _ = try! hive.resolveAll(Plugin.self)
        return hive
    }

    /// A hive with `Named` registered under each of `names`, as a transient.
    static func hive(withVariantsNamed names: [String]) -> ServiceHive {
        let hive = ServiceHive()
        for name in names {
            try! hive.register(Named.self, name: name) { LiveNamed() }
        }
        return hive
    }
}

/// A large business module: it registers `count` services, half of them distinct transients and half named variants
/// of `Named`, and then, if told to, fails to start, so that its install is rolled back.
struct LargeModule: ServiceModule {
    let count: Int
    let failsToStart: Bool

    func register(in hive: ServiceHive) throws {
        var registrar = HiveRegistrar(hive: hive)
        try Self.register(count, into: &registrar) { name in try hive.register(Named.self, name: name) { LiveNamed() } }
    }

    /// Registers what a module of `count` services registers: `count / 2` distinct types into `registrar`, and the
    /// rest with `registerVariant`, one name each.
    static func register(
        _ count: Int, into registrar: inout some TypeRegistrar, registerVariant: (String) throws -> Void
    ) rethrows {
        registerDistinctTypes(count / 2, into: &registrar)
        for name in variantNames(count - count / 2) { try registerVariant(name) }
    }

    func start(in hive: ServiceHive) async throws {
        if failsToStart { throw StartFailure() }
    }

    struct StartFailure: Error {}
}
