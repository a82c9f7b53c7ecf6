extension ServiceHive {
    /// How long a hive keeps the instances a registration builds.
    ///
    /// Pass a scope when you register a factory:
    ///
    /// ```swift
    /// try hive.register(Clock.self, scope: .singleton) { SystemClock() }
    /// ```
    ///
    /// Registrations that take runtime arguments always build a new instance, because each call may pass
    /// different arguments.
    public enum Scope: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A new instance for every resolve. The hive keeps nothing. This is the default.
        case transient
        /// One instance per registration, built lazily on first resolve, exactly once even when many threads
        /// ask at the same moment. The hive keeps it until the registration is removed, the instances are
        /// reset, or the hive is released.
        case singleton
        /// One shared instance while something outside the hive still holds it. The hive holds it weakly and
        /// builds a new one after the last strong reference goes. The instance must be a class instance; a
        /// factory that returns a value type fails with ``ServiceHiveError/weakRequiresClass(_:instanceType:)``.
        case weak
        /// One instance per top-level resolve call: every factory in the same object graph that resolves
        /// this service gets the same instance, and the next top-level call gets a new one.
        case graph

        /// The scope's name, as written in Swift: `transient`, `singleton`, `weak` or `graph`.
        public var description: String {
            switch self {
            case .transient: "transient"
            case .singleton: "singleton"
            case .weak: "weak"
            case .graph: "graph"
            }
        }
    }
}
