extension ThreadContext {
    /// What a thread keeps while it resolves, behind `ThreadContext`'s pointer.
    struct ThreadState {
        /// The registrations whose factories are running, outermost first: `depth` of them, in a buffer of
        /// `ServiceHive.maximumResolutionDepth` places, which pushing and popping never reallocate.
        ///
        /// Unretained: whoever pushes an entry holds it until it pops it (`build` and `complete` take it as a
        /// parameter and pop before they return), so every entry on the chain is alive. Retaining it again cost a
        /// reference-count pair on every build (benchmark `01 transient resolve`, `Benchmarks/count-instructions 01
        /// 03`: 982 → 935 and 2,344 → 2,296 instructions).
        let chain = UnsafeMutablePointer<Unmanaged<Entry>>.allocate(capacity: ServiceHive.maximumResolutionDepth)
        var depth = 0
        /// One set per shared construction in progress, innermost last: the lookups it has made so far.
        var recording: [Set<Dependency>] = []
        /// The `.graph` instances of the current top-level resolve.
        var graph: [GraphInstance] = []
        /// While a traced resolve runs: one node per resolve in progress, innermost last.
        var trace: [TraceFrame] = []
        /// This thread's stack, where the platform says.
        let stack: StackBounds?
    }
}

/// A traced resolve in progress.
struct TraceFrame {
    let key: ServiceHive.ServiceKey
    let start: ContinuousClock.Instant
    var scope: ServiceHive.Scope?
    var outcome = ServiceHive.Trace.Outcome.built
    var children: [ServiceHive.Trace.Node] = []

    init(key: ServiceHive.ServiceKey, start: ContinuousClock.Instant) {
        self.key = key
        self.start = start
    }
}

/// A `.graph` instance of the current top-level resolve.
struct GraphInstance {
    let entry: Entry
    /// The hive whose view built it.
    let builtBy: HiveID
    /// The innermost override layer it was built under, or `nil`.
    let layers: ObjectIdentifier?
    let box: Instance
}
