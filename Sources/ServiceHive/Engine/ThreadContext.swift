internal import ServiceHiveSystem
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// The state of the resolve running on one thread.
///
/// Factories are synchronous, so a top-level resolve and every resolve nested in its factories run on one thread,
/// whether a factory uses its `Resolver` or calls `hive.resolve` directly. Keeping this state per thread is what lets
/// cycle detection, the chain in errors, `.graph` sharing and dependency recording work for both.
///
/// It is a pointer to a per-thread allocation, freed when the thread exits. Only its own thread touches it.
struct ThreadContext {
    /// Read and written only by its own thread.
    let state: UnsafeMutablePointer<ThreadState>

    /// This thread's context, created on first use.
    ///
    /// Read through C's thread-local storage, inlined here, where `pthread_getspecific` is a call that looks its key
    /// up. Every resolve reads it first (`Benchmarks/count-instructions 02`: 249 instructions through
    /// `pthread_getspecific`, 220 this way; `08b`: 552 and 524). The key frees the state when its thread exits.
    static var current: ThreadContext {
        if let raw = service_hive_thread_state_get() {
            return ThreadContext(state: raw.assumingMemoryBound(to: ThreadState.self))
        }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> ThreadContext {
        let state = UnsafeMutablePointer<ThreadState>.allocate(capacity: 1)
        state.initialize(to: ThreadState(stack: StackBounds.current()))
        pthread_setspecific(threadContextKey, state)  // Frees it when the thread exits.
        service_hive_thread_state_set(state)
        return ThreadContext(state: state)
    }

    /// Frees a thread's context; the destructor of `threadContextKey`. Its argument is optional on some platforms only.
    fileprivate static func destroy(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        // A destructor of another key that runs later may resolve: it finds no state and makes a new one, which
        // the key frees again.
        service_hive_thread_state_set(nil)
        let state = raw.assumingMemoryBound(to: ThreadState.self)
        state.pointee.chain.deallocate()  // Empty: a thread cannot exit while one of its resolves runs.
        state.pointee.answers.destroy()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Identifies this thread as the owner of a construction, and as a waiter.
    var id: WaiterID { WaiterID(UInt(bitPattern: state)) }

    // MARK: - The chain

    /// Whether no resolve is running on this thread: the next one is a top-level resolve.
    var isIdle: Bool { state.pointee.depth == 0 }

    var depth: Int { state.pointee.depth }

    /// Whether the failure of a top-level resolve on this thread goes to the failure hook: not when an async resolve
    /// runs it, on this thread or in the task of an async factory, since the async resolve reports its own failure.
    /// Read only when a resolve fails.
    var reportsFailures: Bool { state.pointee.asyncCrossings == 0 && AsyncContext.current == nil }

    /// Pushes `entry`. The caller has checked the depth limit with `refusal(toBuild:)`.
    func push(_ entry: Entry) {
        state.pointee.chain[state.pointee.depth] = .passUnretained(entry)
        state.pointee.depth += 1
    }

    func pop() {
        state.pointee.depth -= 1
    }

    /// Whether `entry`'s factory is running on this thread.
    func isBuilding(_ entry: Entry) -> Bool {
        for index in 0..<state.pointee.depth where state.pointee.chain[index].takeUnretainedValue() === entry {
            return true
        }
        return false
    }

    var chainEntries: [Entry] {
        UnsafeBufferPointer(start: state.pointee.chain, count: state.pointee.depth).map { $0.takeUnretainedValue() }
    }

    /// The printable chain, dropping the innermost `dropping` links.
    func chainKeys(dropping: Int) -> [ServiceHive.ServiceKey] {
        chainEntries.dropLast(dropping).map(\.serviceKey)
    }

    func chainKeys() -> [ServiceHive.ServiceKey] { chainKeys(dropping: 0) }

    /// Why a nested build of `entry` must not start: a cycle, the depth limit or the stack reserve.
    func refusal(toBuild entry: Entry) -> ServiceHiveError? {
        let depth = state.pointee.depth
        guard entry.key.arguments != nil || !isBuilding(entry), depth < ServiceHive.maximumResolutionDepth,
            !(state.pointee.stack?.isLow(depth: depth) ?? false)
        else { return refusalError(toBuild: entry) }
        return nil
    }

    /// The error for a refused build; out of line, to keep the common path short.
    @inline(never)
    private func refusalError(toBuild entry: Entry) -> ServiceHiveError {
        Self.refusal(toBuild: entry, after: chainEntries)
    }

    /// Why a build of `entry` after `chain`, outermost first, must not start: a cycle, unless `entry` takes runtime
    /// arguments, as a recursive function may call itself with others; the depth limit; else the stack reserve.
    static func refusal(toBuild entry: Entry, after chain: [Entry]) -> ServiceHiveError {
        if entry.key.arguments == nil, let start = chain.firstIndex(where: { $0 === entry }) {
            return .circularDependency((chain[start...] + [entry]).map(\.serviceKey))
        }
        let keys = chain.map(\.serviceKey)
        if chain.count >= ServiceHive.maximumResolutionDepth {
            return .resolutionTooDeep(entry.serviceKey, chain: keys, limit: ServiceHive.maximumResolutionDepth)
        }
        return .stackExhausted(entry.serviceKey, chain: keys)
    }

    // MARK: - Dependency recording

    /// Whether a shared construction is in progress on this thread, so lookups must be recorded.
    var isRecording: Bool { !state.pointee.recording.isEmpty }

    /// Whether lookups on this thread must be recorded or traced, so a resolve must take the detailed path.
    var isRecordingOrTracing: Bool { isRecording || isTracing }

    func record(_ dependency: Dependency) {
        state.pointee.recording[state.pointee.recording.count - 1].insert(dependency)
    }

    func record(_ dependencies: Dependencies) {
        guard !dependencies.lookups.isEmpty else { return }
        state.pointee.recording[state.pointee.recording.count - 1].formUnion(dependencies.lookups)
    }

    /// Starts recording the lookups of a construction.
    func beginRecording() {
        Self.recordingsAndTraces.begin()
        state.pointee.recording.append([])
    }

    /// Stops recording, and returns what was recorded, which also counts for the construction around this one.
    func endRecording() -> Dependencies {
        let lookups = state.pointee.recording.removeLast()
        Self.recordingsAndTraces.end()
        if isRecording { state.pointee.recording[state.pointee.recording.count - 1].formUnion(lookups) }
        return Dependencies(lookups: lookups)
    }

    // MARK: - Graph scope

    /// The `.graph` instance of `entry` in the current top-level resolve that a resolve which searched `searched`
    /// may share: one built by a hive it searched, under the same override layers.
    func graphInstance(of entry: Entry, searched: Lineage, layers: ObjectIdentifier?) -> Instance? {
        state.pointee.graph.first { $0.entry === entry && $0.layers == layers && searched.contains($0.builtBy) }?.box
    }

    func addGraphInstance(_ instance: GraphInstance) { state.pointee.graph.append(instance) }

    /// Forgets the `.graph` instance in `box`, whose post-construction hook failed.
    func removeGraphInstance(_ box: Instance) {
        state.pointee.graph.removeAll { $0.box === box }
    }

    /// Ends a top-level resolve: forgets its `.graph` instances. Each is taken out of the list before it is released,
    /// because its `deinit` may resolve on this thread.
    func endTopLevelResolve() {
        guard !state.pointee.graph.isEmpty else { return }
        endGraph()
    }

    @inline(never)
    private func endGraph() {
        while let finished = state.pointee.graph.popLast() {
            withExtendedLifetime(finished) {}
        }
    }
}

/// The thread-specific-storage key of `ThreadContext.current`. Its destructor frees a thread's context when the
/// thread exits.
private let threadContextKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { ThreadContext.destroy($0) }
    precondition(status == 0, "ServiceHive could not create its thread-specific storage key: \(status)")
    return key
}()

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
        /// How many async resolves are running a synchronous resolve on this thread (`resolveSynchronously`): each
        /// hands its own failure to the failure hook, so the synchronous resolve must not.
        var asyncCrossings = 0
        /// This thread's stack, where the platform says.
        let stack: StackBounds?
        /// The cached instances this thread found under the lock, kept for resolves without it (`CachedReads.swift`).
        let answers = ThreadAnswers()
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

extension ThreadContext: ResolveContext {
    var isAsync: Bool { false }

    /// This thread, which builds what it claims.
    var claimant: WaiterID? { id }
}

// MARK: - What may record or trace

extension ThreadContext {
    /// The recordings and traces in progress, on every thread, and the async contexts that record, in every task. While
    /// there is none, no resolve needs to be recorded or traced, so a resolve that finds its instance cached skips
    /// reading this thread's context: skipping it took a singleton resolve from 558 to 521 instructions (benchmark
    /// `02 singleton resolve`, `Benchmarks/count-instructions 02`).
    static let recordingsAndTraces = ActivityCount()

    /// Whether this thread may be recording or tracing, or its task running an async factory that records: `false` only
    /// when no thread or task is.
    static var mayRecordOrTrace: Bool { recordingsAndTraces.mayBeActive }
}

/// How many of some activity, such as recording what a construction uses, are in progress on every thread and task.
///
/// A hot path reads it without a lock to skip a costlier check while nothing of the kind is in progress. An activity
/// is counted before it starts, so a thread or task always sees its own.
struct ActivityCount: ~Copyable, Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Whether an activity may be in progress: `false` only when none is.
    var mayBeActive: Bool { count.load(ordering: .relaxed) != 0 }

    /// Counts an activity that starts.
    func begin() { count.add(1, ordering: .relaxed) }

    /// Counts an activity that has ended.
    func end() { count.subtract(1, ordering: .relaxed) }
}
