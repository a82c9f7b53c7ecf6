extension ServiceHive {
    /// One top-level resolve, as a tree: each service resolved, its scope, whether it was built or found cached,
    /// and how long it took.
    ///
    /// ```swift
    /// hive.trace = { trace in print(trace) }
    /// _ = try hive.resolve(TradeService.self)
    /// // TradeService (singleton) built in 41 µs
    /// // ├─ PricingService (singleton) cached
    /// // └─ InventoryService (singleton) built in 3 µs
    /// ```
    public struct Trace: Sendable, CustomStringConvertible {
        /// What resolving one service did.
        public enum Outcome: Sendable, Hashable {
            /// A factory ran.
            case built
            /// An instance already built was returned: a cached singleton, or the graph's instance.
            case cached
            /// The resolve failed; the error says why.
            case failed
        }

        /// One service of the tree, and the services resolved while building it.
        public struct Node: Sendable {
            /// The service.
            public var key: ServiceKey
            /// Its registration's scope, or `nil` when it has no registration.
            public var scope: Scope?
            /// What resolving it did.
            public var outcome: Outcome
            /// How long it took, the services it resolved included.
            public var duration: Duration
            /// The services resolved while building it, in order.
            public var children: [Node]
        }

        /// The service that was asked for.
        public var root: Node

        /// The tree, one service per line, drawn with box-drawing characters.
        public var description: String {
            Self.lines(of: root, prefix: "", childPrefix: "").joined(separator: "\n")
        }

        private static func lines(of node: Node, prefix: String, childPrefix: String) -> [String] {
            let scope = node.scope.map { " (\($0))" } ?? ""
            let outcome =
                switch node.outcome {
                case .built: "built in \(Self.microseconds(node.duration)) µs"
                case .cached: "cached"
                case .failed: "failed"
                }
            var lines = ["\(prefix)\(node.key)\(scope) \(outcome)"]
            for (index, child) in node.children.enumerated() {
                let isLast = index == node.children.count - 1
                lines += Self.lines(
                    of: child, prefix: childPrefix + (isLast ? "└─ " : "├─ "),
                    childPrefix: childPrefix + (isLast ? "   " : "│  "))
            }
            return lines
        }

        private static func microseconds(_ duration: Duration) -> Int {
            Int(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
        }
    }

    /// A handler that receives the tree of every top-level resolve of this hive's family, or `nil`, the default.
    ///
    /// ```swift
    /// hive.trace = { print($0) }
    /// ```
    ///
    /// It applies to the hive, its parent and its children: they share one family. Off, it costs one branch on each
    /// resolve; on, every resolve takes the detailed path and is timed, so keep it for debugging. The handler runs
    /// after the resolve, with no lock held, on the thread or task that resolved.
    public var trace: (@Sendable (Trace) -> Void)? {
        get { family.withLock { $0.diagnostics.trace } }
        set {
            family.withLock { state in
                // A trace notes what its resolves find cached.
                if newValue != nil { state.changeEveryHive(layered: state.liveLayers != 0) }
                state.diagnostics.trace = newValue
            }
        }
    }

    /// A handler that receives every error a top-level resolve of this hive's family throws, or `nil`, the default.
    ///
    /// ```swift
    /// hive.onResolutionFailure = { error in logger.error("\(error)") }
    /// ```
    ///
    /// The error is still thrown. The handler runs with no lock held, before the error reaches the caller.
    public var onResolutionFailure: (@Sendable (ServiceHiveError) -> Void)? {
        get { family.withLock { $0.diagnostics.failure } }
        set { family.withLock { $0.diagnostics.failure = newValue } }
    }
}
