/// The `direct` baseline: the same work with no locator at all, as code that wires its services by hand does it.
///
/// A transient is a call to its initializer; a singleton is a read of a `static let` that holds the instance; a
/// service with dependencies is its initializer called with stored singletons. The scenarios use these where a
/// locator would resolve, so that `ServiceHive ÷ direct` is what the locator adds to the work itself.
enum Direct {
    static let singleton: any Singleton = LiveSingleton()
    static let dependencyA: any DependencyA = LiveDependencyA()
    static let dependencyB: any DependencyB = LiveDependencyB()
    static let dependencyC: any DependencyC = LiveDependencyC()

    /// A transient with three singleton dependencies, built from the stored singletons.
    static func composite() -> any Composite {
        LiveComposite(a: dependencyA, b: dependencyB, c: dependencyC)
    }

    /// A root with two branches that share one leaf, as the `.graph` scope builds it.
    static func root() -> any Root {
        let leaf = LiveLeaf()
        return LiveRoot(left: LiveBranch(leaf: leaf), right: LiveBranch(leaf: leaf))
    }
}

/// What a child hive per request stands for when written by hand: one object that holds the request's own instances,
/// from which the request's services are built.
final class RequestServices: Sendable {
    let session: any Session
    init(session: any Session) { self.session = session }

    func handler() -> any RequestHandler { LiveRequestHandler(session: session) }
}

extension Direct {
    /// The forwarded singleton, under its second protocol.
    static let storeReader: any StoreReader = LiveStore()
    /// The singleton that the hive builds with an `async` factory.
    static let asyncSingleton: any AsyncSingleton = LiveAsyncSingleton()
}

extension Direct {
    /// The ten plugins of the collection, in a list kept by hand.
    static let plugins: [any Plugin] = (0..<10).map { _ in LivePlugin() }
}
