import Benchmark
import ServiceHive
import Swinject

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The hives the scenarios resolve from, built once.
enum Hives {
    /// Every scenario's registrations.
    static let standard: ServiceHive = withStandardRegistrations()

    /// The standard registrations, and issue 14's: a singleton forwarded to a second protocol, and a singleton with
    /// an async factory, which the async scenario builds before it measures.
    static let features: ServiceHive = {
        let hive = withStandardRegistrations()
        try! hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
        try! hive.forward(StoreReader.self, to: LiveStore.self) { $0 }
        try! hive.register(AsyncSingleton.self, scope: .singleton) { _ async throws in LiveAsyncSingleton() }
        _ = try! hive.resolve(StoreReader.self)
        return hive
    }()

    /// The standard registrations, and a singleton built from the transient, which the override scenarios override.
    static let withDependent: ServiceHive = {
        let hive = withStandardRegistrations()
        try! hive.register(Dependent.self, scope: .singleton) { r in LiveDependent(transient: try r.resolve()) }
        return hive
    }()

    /// As `withDependent`, with the singleton resolved and cached outside any override: a hive of its own, so that
    /// 08d's stays cold.
    static let withWarmedDependent: ServiceHive = {
        let hive = withStandardRegistrations()
        try! hive.register(Dependent.self, scope: .singleton) { r in LiveDependent(transient: try r.resolve()) }
        _ = try! hive.resolve(Dependent.self)
        return hive
    }()

    /// `Named` under 1,000 names.
    static let manyNames: ServiceHive = ScaleFixtures.hive(withVariantsNamed: ManyNames.all)

    /// The standard registrations, with a trace handler that does nothing.
    static let traced: ServiceHive = {
        let hive = withStandardRegistrations()
        hive.trace = { _ in }
        _ = try! hive.resolve(Singleton.self)
        return hive
    }()

    /// The standard registrations, with a trace handler that was set and then removed.
    static let traceTurnedOff: ServiceHive = {
        let hive = withStandardRegistrations()
        hive.trace = { _ in }
        _ = try! hive.resolve(Singleton.self)
        hive.trace = nil
        return hive
    }()

    /// A new hive with every scenario's registrations, its singleton already built.
    private static func withStandardRegistrations() -> ServiceHive { StandardRegistrations.hive() }

    /// The singleton among 10 registrations.
    static let small: ServiceHive = ScaleFixtures.hive(withSingletonAmong: 10)
    /// The singleton among 10,000 registrations.
    static let large: ServiceHive = ScaleFixtures.hive(withSingletonAmong: 10_000)

    /// 1,000 transient registrations, for validation.
    static let thousand: ServiceHive = {
        var registrar = HiveRegistrar(hive: ServiceHive())
        registerDistinctTypes(1_000, into: &registrar)
        return registrar.hive
    }()
}

/// The Swinject containers, with the same registrations.
enum Containers {
    static let standard: Container = withStandardRegistrations()

    /// The standard registrations, and a singleton that also implements a second protocol, as `Hives.features`.
    static let features: Container = {
        let container = withStandardRegistrations()
        container.register(LiveStore.self) { _ in LiveStore() }.implements(StoreReader.self).inObjectScope(.container)
        _ = container.resolve(StoreReader.self)
        return container
    }()

    private static func withStandardRegistrations() -> Container {
        let container = Container()
        container.register(Transient.self) { _ in LiveTransient() }.inObjectScope(.transient)
        container.register(Singleton.self) { _ in LiveSingleton() }.inObjectScope(.container)
        container.register(DependencyA.self) { _ in LiveDependencyA() }.inObjectScope(.container)
        container.register(DependencyB.self) { _ in LiveDependencyB() }.inObjectScope(.container)
        container.register(DependencyC.self) { _ in LiveDependencyC() }.inObjectScope(.container)
        container.register(Composite.self) { r in
            LiveComposite(
                a: r.resolve(DependencyA.self)!, b: r.resolve(DependencyB.self)!, c: r.resolve(DependencyC.self)!)
        }.inObjectScope(.transient)
        container.register(Named.self, name: "special") { _ in LiveNamed() }.inObjectScope(.transient)
        container.register(Greeting.self) { (_, count: Int) in LiveGreeting(count: count) }.inObjectScope(.transient)
        container.register(Greeting.self) { (_, count: Int, name: String) in LiveGreeting(count: count, name: name) }
            .inObjectScope(.transient)
        container.register(Leaf.self) { _ in LiveLeaf() }.inObjectScope(.graph)
        container.register(Branch.self) { r in LiveBranch(leaf: r.resolve(Leaf.self)!) }.inObjectScope(.transient)
        container.register(Root.self) { r in LiveRoot(left: r.resolve(Branch.self)!, right: r.resolve(Branch.self)!) }
            .inObjectScope(.transient)
        _ = container.resolve(Singleton.self)
        return container
    }

    /// Swinject's nearest equivalent of an override: a child container that re-registers the service.
    static let overridingChild: Container = {
        let child = Container(parent: standard)
        child.register(Transient.self) { _ in MockTransient() }.inObjectScope(.transient)
        return child
    }()

    /// A child container that registers a mock singleton, in its own `.container` scope.
    static let overridingSingletonChild: Container = {
        let child = Container(parent: standard)
        child.register(Singleton.self) { _ in MockSingleton() }.inObjectScope(.container)
        return child
    }()

    /// Three nested child containers, each of which re-registers the transient.
    static let nestedOverridingChild: Container = {
        var container = standard
        for _ in 0..<3 {
            container = Container(parent: container)
            container.register(Transient.self) { _ in MockTransient() }.inObjectScope(.transient)
        }
        return container
    }()

    /// `Named` under 1,000 names.
    static let manyNames: Container = {
        let container = Container()
        for name in ManyNames.all {
            container.register(Named.self, name: name) { _ in LiveNamed() }.inObjectScope(.transient)
        }
        return container
    }()

    /// Swinject's thread-safe resolver, which concurrent resolves need.
    static let synchronized = SynchronizedResolver(resolver: standard.synchronize())

    static let large: Container = {
        var registrar = ContainerRegistrar(container: Container())
        registerDistinctTypes(9_999, into: &registrar)
        registrar.container.register(Singleton.self) { _ in LiveSingleton() }.inObjectScope(.container)
        _ = registrar.container.resolve(Singleton.self)
        return registrar.container
    }()
}

/// The floors, with the same registrations where the floor can express them.
enum Floors {
    static let standard: Floor = {
        let floor = Floor()
        floor.register(Transient.self) { LiveTransient() }
        let singleton = LiveSingleton()
        floor.register(Singleton.self) { singleton }
        let a = LiveDependencyA()
        let b = LiveDependencyB()
        let c = LiveDependencyC()
        floor.register(DependencyA.self) { a }
        floor.register(DependencyB.self) { b }
        floor.register(DependencyC.self) { c }
        floor.register(Composite.self) { [unowned floor] in
            LiveComposite(
                a: floor.resolve(DependencyA.self), b: floor.resolve(DependencyB.self),
                c: floor.resolve(DependencyC.self))
        }
        return floor
    }()

    static let large: Floor = {
        var registrar = FloorRegistrar(floor: Floor())
        registerDistinctTypes(9_999, into: &registrar)
        let singleton = LiveSingleton()
        registrar.floor.register(Singleton.self) { singleton }
        return registrar.floor
    }()

    /// `Named` under 1,000 names.
    static let manyNames: Floor = {
        let floor = Floor()
        for name in ManyNames.all {
            floor.register(Named.self, name: name) { LiveNamed() }
        }
        return floor
    }()
}

/// The names of the named resolve among many names, and the one it resolves.
enum ManyNames {
    static let all = variantNames(1_000)
    static let resolved = "variant-500"
}

/// Visits the same types and makes the same factory closures as the other registrars, but stores them nowhere.
struct DirectRegistrar: TypeRegistrar {
    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        blackHole(make)
    }
}

/// Registers each type as a singleton of a one-word class, and can resolve them all.
struct SingletonRegistrar: TypeRegistrar {
    let hive: ServiceHive
    private(set) var resolves: [() -> Void] = []

    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        try! hive.register(Tagged<T>.self, scope: .singleton) { Tagged<T>() }
        let hive = hive
        resolves.append { _ = try! hive.resolve(Tagged<T>.self) }
    }

    func resolveAll() {
        for resolve in resolves { resolve() }
    }
}

/// The smallest class instance: a header and nothing else, 16 bytes.
final class Tagged<T>: Sendable {}

struct ContainerRegistrar: TypeRegistrar {
    let container: Container
    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        container.register(T.self) { _ in make() }
    }
}

struct FloorRegistrar: TypeRegistrar {
    let floor: Floor
    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        floor.register(T.self, make)
    }
}

/// The least work an all-or-nothing install can do by hand: it registers into the floor what `LargeModule` registers,
/// remembers how to undo each registration, and can undo them all, newest first.
struct FloorInstall: TypeRegistrar {
    let floor: Floor
    private var undo: [() -> Void] = []

    init(floor: Floor) { self.floor = floor }

    /// Registers what a `LargeModule` of `count` services registers.
    mutating func registerLargeModule(count: Int) {
        let floor = floor
        var undoVariants: [() -> Void] = []
        LargeModule.register(count, into: &self) { name in
            floor.register(Named.self, name: name) { LiveNamed() }
            undoVariants.append { floor.unregister(Named.self, name: name) }
        }
        undo += undoVariants
    }

    mutating func register<T>(_ type: T.Type, make: @escaping () -> T) {
        floor.register(T.self, make)
        let floor = floor
        undo.append { floor.unregister(T.self) }
    }

    func rollBack() {
        for step in undo.reversed() { step() }
    }
}

/// Swinject's synchronized resolver is thread-safe by its documentation, but not marked `Sendable`.
struct SynchronizedResolver: @unchecked Sendable {
    // Sendable: `Container.synchronize()` returns a resolver that takes Swinject's own lock around each resolve.
    let resolver: any Resolver
}

/// An environment variable, without Foundation.
enum ProcessInfoEnvironment {
    static func value(for name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
