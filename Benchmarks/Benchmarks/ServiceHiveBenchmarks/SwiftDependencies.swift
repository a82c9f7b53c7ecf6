import Dependencies

// The same services for swift-dependencies 1.17.1, registered as its documentation recommends ("Registering
// dependencies", "Designing dependencies"): one `DependencyKey` each, with a `liveValue`, and a `DependencyValues`
// property to read it through `@Dependency(\.name)`.
//
// swift-dependencies caches every `liveValue` the first time it is read, even a computed one, so a dependency is
// always shared. A new instance per read is written as it writes its own generators (`\.uuid`, `\.date`): a struct
// whose closure builds one, called where it is used. Runtime arguments are that closure's parameters. A service
// with dependencies reads them with `@Dependency` when it is built, so that overriding one of them is seen.

/// Builds a new `Transient` on each call: the swift-dependencies form of a transient.
struct TransientFactory: DependencyKey {
    var make: @Sendable () -> any Transient
    func callAsFunction() -> any Transient { make() }

    static let liveValue = TransientFactory { LiveTransient() }
}

/// The singleton: one stored instance.
enum SingletonKey: DependencyKey {
    static let liveValue: any Singleton = LiveSingleton()
}

enum DependencyAKey: DependencyKey {
    static let liveValue: any DependencyA = LiveDependencyA()
}

enum DependencyBKey: DependencyKey {
    static let liveValue: any DependencyB = LiveDependencyB()
}

enum DependencyCKey: DependencyKey {
    static let liveValue: any DependencyC = LiveDependencyC()
}

/// Builds a new `Composite` on each call from the three singleton dependencies.
struct CompositeFactory: DependencyKey {
    var make: @Sendable () -> any Composite
    func callAsFunction() -> any Composite { make() }

    static let liveValue = CompositeFactory {
        @Dependency(\.dependencyA) var a
        @Dependency(\.dependencyB) var b
        @Dependency(\.dependencyC) var c
        return LiveComposite(a: a, b: b, c: c)
    }
}

/// Builds a new `Greeting` on each call from one or two runtime arguments.
struct GreetingFactory: DependencyKey {
    var make: @Sendable (_ count: Int) -> any Greeting
    var makeNamed: @Sendable (_ count: Int, _ name: String) -> any Greeting
    func callAsFunction(count: Int) -> any Greeting { make(count) }
    func callAsFunction(count: Int, name: String) -> any Greeting { makeNamed(count, name) }

    static let liveValue = GreetingFactory(
        make: { LiveGreeting(count: $0) },
        makeNamed: { LiveGreeting(count: $0, name: $1) }
    )
}

extension DependencyValues {
    var makeTransient: TransientFactory {
        get { self[TransientFactory.self] }
        set { self[TransientFactory.self] = newValue }
    }
    var singleton: any Singleton {
        get { self[SingletonKey.self] }
        set { self[SingletonKey.self] = newValue }
    }
    var dependencyA: any DependencyA {
        get { self[DependencyAKey.self] }
        set { self[DependencyAKey.self] = newValue }
    }
    var dependencyB: any DependencyB {
        get { self[DependencyBKey.self] }
        set { self[DependencyBKey.self] = newValue }
    }
    var dependencyC: any DependencyC {
        get { self[DependencyCKey.self] }
        set { self[DependencyCKey.self] = newValue }
    }
    var makeComposite: CompositeFactory {
        get { self[CompositeFactory.self] }
        set { self[CompositeFactory.self] = newValue }
    }
    var makeGreeting: GreetingFactory {
        get { self[GreetingFactory.self] }
        set { self[GreetingFactory.self] = newValue }
    }
}
