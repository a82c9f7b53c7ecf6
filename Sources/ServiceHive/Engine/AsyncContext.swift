import Synchronization

/// The state of one async resolve, bound to the task-local ``current`` while async factories run.
///
/// An async factory may suspend and resume on another thread, so, unlike `ThreadContext`, this state travels with
/// the task. A top-level `resolveAsync` makes a root context; every factory it runs gets a child context with the
/// chain extended. A shared instance's construction runs in a task of its own, whose context is the waiter that
/// cycle detection follows.
final class AsyncContext: Sendable {
    /// The context of the async factory running in the current task, if any.
    @TaskLocal static var current: AsyncContext?

    /// The registrations whose factories are running in this resolve, outermost first.
    let chain: [Entry]
    /// This resolve, or this construction, as a waiter.
    let id: WaiterID
    /// Guards, and only guards, the `.graph` instances of the top-level resolve; shared by every context of it.
    let graph: Locked<[GraphInstance]>
    /// Guards, and only guards, what the shared construction of this context was built from; `nil` when this
    /// context builds no shared instance.
    let recording: Locked<Set<Dependency>>?
    /// The context this one was made in, which also records what this one records.
    let parent: AsyncContext?
    /// Whether this context or one it was made in builds a shared instance, so lookups must be recorded.
    let isRecording: Bool

    /// The current task's context, when it records what a shared construction uses: a synchronous resolve in this
    /// task, through any hive or resolver, counts for that construction, as it would on the thread of a synchronous one.
    ///
    /// Reads the task-local only while something records somewhere: a context that records counts in
    /// `ThreadContext.recordingsAndTraces` from before its task starts. That read is a fifth of a cached async resolve
    /// (`Benchmarks/count-instructions 18`).
    static var recordingCurrent: AsyncContext? {
        guard ThreadContext.mayRecordOrTrace, let context = current, context.isRecording else { return nil }
        return context
    }

    private init(chain: [Entry], id: WaiterID?, graph: Locked<[GraphInstance]>, recording: Bool, parent: AsyncContext?)
    {
        self.chain = chain
        self.graph = graph
        self.recording = recording ? Locked([]) : nil
        if recording { ThreadContext.recordingsAndTraces.begin() }
        self.parent = parent
        self.id = id ?? WaiterID(UInt(bitPattern: ObjectIdentifier(graph)))
        isRecording = recording || parent?.isRecording == true
    }

    deinit {
        if recording != nil { ThreadContext.recordingsAndTraces.end() }
    }

    /// The context of a new top-level resolve.
    static func root() -> AsyncContext {
        AsyncContext(chain: [], id: nil, graph: Locked([]), recording: false, parent: nil)
    }

    /// The context of `entry`'s factory, run by this resolve: for a shared construction, its own waiter and recorder.
    func child(building entry: Entry, pending: PendingInstance?) -> AsyncContext {
        AsyncContext(
            chain: chain + [entry], id: pending?.owner ?? id, graph: graph, recording: pending != nil, parent: self)
    }

    /// Records a lookup for every shared construction this context is part of.
    func record(_ dependency: Dependency) {
        record(Dependencies(lookups: [dependency]))
    }

    /// Records lookups for every shared construction this context is part of.
    func record(_ dependencies: Dependencies) {
        guard isRecording, !dependencies.isEmpty else { return }
        var context: AsyncContext? = self
        while let current = context {
            current.recording?.withLock { $0.formUnion(dependencies.lookups) }
            context = current.parent
        }
    }

    /// What this context's shared construction has been built from.
    var recorded: Dependencies { Dependencies(lookups: recording?.withLock { $0 } ?? []) }

    /// Why building `entry` here must not start: a cycle, or the depth limit.
    func refusal(toBuild entry: Entry) -> ServiceHiveError? {
        guard chain.contains(where: { $0 === entry }) || chain.count >= ServiceHive.maximumResolutionDepth else {
            return nil
        }
        return ThreadContext.refusal(toBuild: entry, after: chain)
    }
}

extension AsyncContext: ResolveContext {
    var isAsync: Bool { true }

    /// `nil`: an async resolve builds a shared instance in a task of its own, which waits as the construction.
    var claimant: WaiterID? { nil }

    /// `false`: async resolves are not traced.
    var isTracing: Bool { false }

    /// Nothing: async resolves are not traced.
    func noteTrace(scope: ServiceHive.Scope?, cached: Bool) {}

    func graphInstance(of entry: Entry, searched: Lineage, layers: ObjectIdentifier?) -> Instance? {
        graph.withLock { graph in
            graph.first { $0.entry === entry && $0.layers == layers && searched.contains($0.builtBy) }?.box
        }
    }

    /// Adds a `.graph` instance that this top-level resolve built.
    func addGraphInstance(_ instance: GraphInstance) {
        graph.withLock { $0.append(instance) }
    }

    func chainKeys() -> [ServiceHive.ServiceKey] { chain.map(\.serviceKey) }
}
