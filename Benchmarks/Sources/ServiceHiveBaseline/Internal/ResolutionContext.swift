#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A graph-scoped instance: one per registration and per hive whose view built it. It keeps its entry alive so
/// that the entry's address cannot be reused by another registration while the instance is cached.
struct GraphInstance {
    let entry: Entry
    let view: ObjectIdentifier
    let box: AnyObject
}

/// The state of the resolve that is running on one thread.
///
/// Factories are synchronous, so a top-level resolve and every resolve nested inside its factories run on one
/// thread, whether a factory uses its `ServiceHive.Resolver` or calls `hive.resolve` directly. Keeping this state in
/// thread-specific storage is what lets cycle detection, the dependency chain in errors and `.graph` sharing work
/// for both, with no allocation per resolve.
///
/// The context is a pointer to a per-thread allocation, so passing it around costs no reference counting. It is
/// freed when its thread exits; a thread cannot exit while one of its resolves, and so its context, is in use.
struct ResolutionContext: @unchecked Sendable {
    // Sendable: the pointee's `depth`, `chain` and `graph` are touched only by the thread that owns it. Its
    // `waitingFor` and `waitingChain` are guarded by `ConstructionCoordinator.shared`'s lock, because other
    // threads read them to detect a cycle of threads waiting on one another.
    private let state: UnsafeMutablePointer<State>

    struct State {
        /// The registrations whose factories are running on this thread, outermost first, in a buffer of
        /// `ServiceHive.maximumResolutionDepth` slots. The entries are unretained: each is kept alive by the frame
        /// that pushed it, which pops it before returning.
        let chain: UnsafeMutablePointer<Unmanaged<Entry>>
        var depth = 0
        /// The `.graph` instances of the current top-level resolve: a few, so a list searched in order beats a
        /// dictionary, and its capacity is kept from one resolve to the next.
        var graph: ContiguousArray<GraphInstance> = []
        /// The construction this thread is blocked on.
        var waitingFor: Construction?
        /// The chain followed by the entry of `waitingFor`, captured when this thread started waiting.
        var waitingChain: [Entry] = []
        /// This thread's stack, when the platform says where it is.
        let stack: StackBounds?
    }

    /// This thread's context, created on first use.
    @inline(__always)
    static var current: ResolutionContext {
        if let raw = pthread_getspecific(resolutionContextKey) {
            return ResolutionContext(state: raw.assumingMemoryBound(to: State.self))
        }
        return makeCurrent()
    }

    private init(state: UnsafeMutablePointer<State>) {
        self.state = state
    }

    @inline(never)
    private static func makeCurrent() -> ResolutionContext {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(
            to: State(chain: .allocate(capacity: ServiceHive.maximumResolutionDepth), stack: StackBounds.current()))
        pthread_setspecific(resolutionContextKey, state)
        return ResolutionContext(state: state)
    }

    /// Frees a thread's context; the destructor of the thread-specific storage key.
    fileprivate static func destroy(_ raw: UnsafeMutableRawPointer) {
        let state = raw.assumingMemoryBound(to: State.self)
        state.pointee.chain.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether two contexts are the same thread's.
    static func === (lhs: Self, rhs: Self) -> Bool { lhs.state == rhs.state }

    // MARK: - The chain

    /// Whether no resolve is running on this thread: the next one is a top-level resolve.
    @inline(__always)
    var isIdle: Bool { state.pointee.depth == 0 }

    /// How many factories are running on this thread.
    var depth: Int { state.pointee.depth }

    /// Pushes `entry` onto the chain. The caller has checked `depth < ServiceHive.maximumResolutionDepth`.
    @inline(__always)
    func push(_ entry: Entry) {
        state.pointee.chain[state.pointee.depth] = Unmanaged.passUnretained(entry)
        state.pointee.depth += 1
    }

    /// Pops the innermost entry.
    @inline(__always)
    func pop() {
        state.pointee.depth -= 1
    }

    /// Whether this thread's stack is down to `StackBounds.reserve`.
    @inline(__always)
    var isStackLow: Bool { state.pointee.stack?.isLow(depth: state.pointee.depth) ?? false }

    /// Whether `entry` is being built on this thread.
    func isBuilding(_ entry: Entry) -> Bool {
        let target = Unmanaged.passUnretained(entry).toOpaque()
        let chain = state.pointee.chain
        for index in 0..<state.pointee.depth where chain[index].toOpaque() == target {
            return true
        }
        return false
    }

    /// The entries whose factories are running, outermost first.
    var chainEntries: [Entry] {
        (0..<state.pointee.depth).map { state.pointee.chain[$0].takeUnretainedValue() }
    }

    /// The printable chain, dropping the innermost `dropping` links.
    func chainKeys(dropping: Int = 0) -> [ServiceHive.ServiceKey] {
        chainEntries.dropLast(dropping).map(\.serviceKey)
    }

    /// The ``ServiceHiveError/circularDependency(_:)`` for resolving `entry` while it is being built on this
    /// thread: the chain from `entry`'s first appearance, closed by `entry`.
    func cycleError(closingAt entry: Entry) -> ServiceHiveError {
        let entries = chainEntries + [entry]
        let start = entries.firstIndex { $0 === entry } ?? 0
        return .circularDependency(entries[start...].map(\.serviceKey))
    }

    // MARK: - Graph scope

    /// The `.graph` instance of `entry` that `view` built in the current top-level resolve.
    func graphInstance(of entry: Entry, view: ServiceHive) -> AnyObject? {
        let view = ObjectIdentifier(view)
        for instance in state.pointee.graph where instance.entry === entry && instance.view == view {
            return instance.box
        }
        return nil
    }

    /// Caches a `.graph` instance for the rest of the current top-level resolve.
    func setGraphInstance(_ box: AnyObject, of entry: Entry, view: ServiceHive) {
        state.pointee.graph.append(GraphInstance(entry: entry, view: ObjectIdentifier(view), box: box))
    }

    /// Whether the current top-level resolve has cached `.graph` instances.
    @inline(__always)
    var hasGraphInstances: Bool { !state.pointee.graph.isEmpty }

    /// Ends a top-level resolve: forgets its `.graph` instances, keeping the list's capacity.
    ///
    /// Each instance is taken out of the list before it is released, because releasing it runs its `deinit`,
    /// which may itself resolve on this thread.
    func endGraph() {
        while let finished = state.pointee.graph.popLast() {
            withExtendedLifetime(finished) {}
        }
    }

    // MARK: - Waiting, guarded by the coordinator's lock

    /// The construction this thread is blocked on.
    var waitingFor: Construction? {
        get { state.pointee.waitingFor }
        nonmutating set { state.pointee.waitingFor = newValue }
    }

    /// The chain of this thread when it started waiting, followed by the awaited entry.
    var waitingChain: [Entry] {
        get { state.pointee.waitingChain }
        nonmutating set { state.pointee.waitingChain = newValue }
    }
}

/// The thread-specific-storage key for `ResolutionContext.current`. Its destructor frees a thread's context when
/// the thread exits.
private let resolutionContextKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let status = pthread_key_create(&key) { raw in
        ResolutionContext.destroy(raw)
    }
    #else
    let status = pthread_key_create(&key) { raw in
        guard let raw else { return }
        ResolutionContext.destroy(raw)
    }
    #endif
    precondition(status == 0, "ServiceHive could not create its thread-specific storage key: \(status)")
    return key
}()
