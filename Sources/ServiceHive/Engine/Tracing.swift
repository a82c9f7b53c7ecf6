extension HiveCore {
    /// Runs `resolve`, as one node of this thread's trace when it traces; a top-level resolve also ends here, and
    /// hands its trace to the trace handler, and its failure to the failure hook.
    ///
    /// - Parameter printed: What the node names: the service and name asked for, a contribution, or a collection.
    func reporting<Service>(
        _ printed: @autoclosure () -> ServiceHive.ServiceKey,
        _ context: ThreadContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        let isTopLevel = context.isIdle
        defer { if isTopLevel { context.endTopLevelResolve() } }
        // Through `sharedFamily`: the handlers are no registration, and a resolve from a request's child hive keeps
        // what the child was given apart (`Provision.swift`).
        let diagnostics = isTopLevel ? sharedFamily.withLock { $0.diagnostics } : Diagnostics()
        let isTraced = context.isTracing || diagnostics.trace != nil
        if isTraced { context.beginTrace(printed()) }
        do {
            let value = try resolve()
            if isTraced { report(context.endTrace(failed: false), to: diagnostics) }
            return value
        } catch {
            if isTraced { report(context.endTrace(failed: true), to: diagnostics) }
            if isTopLevel, context.reportsFailures { diagnostics.failure?(error) }
            throw error
        }
    }

    /// Hands a finished trace to the trace handler, if there is one: for a top-level resolve. The node is ended by the
    /// caller in any case, since a nested one joins its parent's tree.
    private func report(_ node: ServiceHive.Trace.Node, to diagnostics: Diagnostics) {
        diagnostics.trace?(ServiceHive.Trace(root: node))
    }
}

extension ThreadContext {
    // MARK: - Tracing

    /// Whether a traced resolve is running on this thread, so nested resolves join its tree.
    var isTracing: Bool { !state.pointee.trace.isEmpty }

    func beginTrace(_ key: ServiceHive.ServiceKey) {
        Self.recordingsAndTraces.begin()
        state.pointee.trace.append(TraceFrame(key: key, start: .now))
    }

    /// Notes the scope of the registration the innermost traced resolve found, or that it found a cached instance.
    func noteTrace(scope: ServiceHive.Scope? = nil, cached: Bool = false) {
        guard isTracing else { return }
        let last = state.pointee.trace.count - 1
        if let scope { state.pointee.trace[last].scope = scope }
        if cached { state.pointee.trace[last].outcome = .cached }
    }

    /// Ends the innermost traced resolve, attaches it to its parent, and returns it.
    func endTrace(failed: Bool) -> ServiceHive.Trace.Node {
        let frame = state.pointee.trace.removeLast()
        Self.recordingsAndTraces.end()
        let node = ServiceHive.Trace.Node(
            key: frame.key, scope: frame.scope, outcome: failed ? .failed : frame.outcome,
            duration: ContinuousClock.now - frame.start, children: frame.children)
        if isTracing { state.pointee.trace[state.pointee.trace.count - 1].children.append(node) }
        return node
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
