extension ServiceHive {
    /// How long a hive keeps the instances a registration builds.
    ///
    /// Pass a scope when you register a factory:
    ///
    /// ```swift
    /// try hive.register(Clock.self, scope: .singleton) { SystemClock() }
    /// ```
    ///
    /// A shared instance (`.singleton`, `.weak` or a named scope) is handed to every thread that resolves it, so it
    /// must be safe to use from any thread. Registrations that take runtime arguments always build a new instance,
    /// because each call may pass different arguments.
    ///
    /// Define a named scope for instances that an app drops together, such as everything of a signed-in session:
    ///
    /// ```swift
    /// extension ServiceHive.Scope {
    ///     static let session = Self.named("session")
    /// }
    ///
    /// try hive.register(Cart.self, scope: .session) { r in LiveCart(user: try r.resolve()) }
    /// hive.resetInstances(in: .session)  // on signing out
    /// ```
    public struct Scope: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case transient, singleton, weak, graph
            case named(String)
        }

        let kind: Kind
        /// How the resolution path treats the scope.
        let lifetime: Lifetime

        /// A new instance for every resolve. The hive keeps nothing. This is the default.
        public static let transient = Scope(kind: .transient, lifetime: .transient)

        /// One instance per registration, built lazily on first resolve, exactly once even when many threads ask at
        /// the same moment. The hive keeps it until the registration is removed, the instances are reset, or the
        /// hive is released.
        public static let singleton = Scope(kind: .singleton, lifetime: .shared)

        /// One shared instance while something outside the hive still holds it. The hive holds it weakly and builds
        /// a new one after the last strong reference goes. The instance must be a class instance; a factory that
        /// returns a value type fails with ``ServiceHiveError/weakRequiresClass(_:instanceType:)``.
        public static let weak = Scope(kind: .weak, lifetime: .weak)

        /// One instance per top-level resolve call: every factory in the same object graph that resolves this
        /// service gets the same instance, and the next top-level call gets a new one.
        public static let graph = Scope(kind: .graph, lifetime: .graph)

        /// A named scope: shared like a singleton until ``ServiceHive/resetInstances(in:)`` drops every instance of
        /// the scope at once.
        ///
        /// - Parameter name: The scope's name, such as `session`. Two scopes with the same name are the same scope.
        /// - Returns: The scope.
        public static func named(_ name: String) -> Scope { Scope(kind: .named(name), lifetime: .shared) }

        /// The scope's name: `transient`, `singleton`, `weak`, `graph`, or a named scope's name.
        public var description: String {
            switch kind {
            case .transient: "transient"
            case .singleton: "singleton"
            case .weak: "weak"
            case .graph: "graph"
            case .named(let name): name
            }
        }
    }
}
