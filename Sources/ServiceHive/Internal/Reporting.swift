/// What a lookup that found nothing saw, for its error.
struct Missing: Sendable {
    /// The entries registered for the same service under other names or arguments, in the hives searched.
    let candidates: [Entry]
    /// Whether child hives of this family have provided the service.
    let providedByChildren: Bool
    /// The modules installed in the hives searched that declare they need the service.
    let neededByModules: [String]
}

extension HiveCore {
    /// The error, or the `nil` of an `Optional`, for a first lookup that found no registration.
    @inline(never)
    func resolveUnanswered<Service>(
        _ key: RegistrationKey,
        _ argumentTypes: () -> [Any.Type],
        _ lookup: Lookup
    ) throws(ServiceHiveError) -> Service {
        let context = ThreadContext.current
        return try reporting(key, context) { () throws(ServiceHiveError) in
            if context.isRecording { context.record(miss(key)) }
            return try unanswered(lookup, key, argumentTypes(), chain: context.chainKeys())
        }
    }

    /// Runs `resolve`, as one node of this thread's trace when it traces; a top-level resolve also ends here, and
    /// hands its trace to the trace handler, and its failure to the failure hook.
    func reporting<Service>(
        _ key: RegistrationKey,
        _ context: ThreadContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        let isTopLevel = context.isIdle
        defer { if isTopLevel { context.endTopLevelResolve() } }
        let diagnostics = isTopLevel ? family.withLock { $0.diagnostics } : Diagnostics()
        let isTraced = context.isTracing || diagnostics.trace != nil
        if isTraced { context.beginTrace(ServiceHive.ServiceKey(service: typeName(Service.self), name: key.name)) }
        do {
            let value = try resolve()
            if isTraced { report(context.endTrace(failed: false), to: diagnostics) }
            return value
        } catch {
            if isTraced { report(context.endTrace(failed: true), to: diagnostics) }
            diagnostics.failure?(error)
            throw error
        }
    }

    /// Hands a finished trace to the trace handler, if there is one: for a top-level resolve. The node is ended by the
    /// caller in any case, since a nested one joins its parent's tree.
    private func report(_ node: ServiceHive.Trace.Node, to diagnostics: Diagnostics) {
        diagnostics.trace?(ServiceHive.Trace(root: node))
    }

    /// What a lookup for `key` that found nothing saw, with the family lock held, so that its error describes the
    /// same state.
    func missing(_ key: RegistrationKey, in state: borrowing FamilyState, layers: OverrideLayer?) -> Missing {
        var candidates: [Entry] = []
        for id in lineage {
            candidates += layers?.overrides(of: key.service, on: Override.Hive(family: familyID, id: id)) ?? []
            candidates += state.hives[id.index].registry.records(of: key.service).map(\.entry)
        }
        return Missing(
            candidates: candidates, providedByChildren: state.providedByChildren.index(of: key.service) != nil,
            neededByModules: state.modules.isEmpty ? [] : InstalledModule.needing(key, in: lineage, of: state.modules))
    }

    /// What a lookup that found no registration gives: `nil` for an `Optional` service whose wrapped service has
    /// none, or the error.
    func unanswered<Service>(
        _ lookup: Lookup,
        _ key: RegistrationKey,
        _ argumentTypes: [Any.Type],
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Service {
        let requested = ServiceHive.ServiceKey(
            service: typeName(Service.self), name: key.name, argumentTypes: argumentTypes.map(typeName))
        switch lookup {
        case .missing(let missing):
            if let deferred = Service.self as? any DeferredService.Type, key.arguments == nil {
                // Safe: `deferred(from:key:)` returns `Self`, which is `Service`.
                return deferred.deferred(from: self, key: key) as! Service
            }
            if let optional = Service.self as? any OptionalService.Type, key.arguments == nil {
                // Safe: `resolveWrapped` returns `Self`, which is `Service`.
                return try optional.resolveWrapped(with: self, key: key, chain: chain) as! Service
            }
            throw missingError(key, Service.self, argumentTypes, missing, chain: chain)
        case .released:
            throw .hiveReleased(requested)
        case .notOverridden:
            throw .notOverridden(requested, chain: chain)
        case .notSendable:
            throw .notSendable(requested, chain: chain)
        case .found:
            preconditionFailure("a lookup that found a registration is answered")
        }
    }

    /// The error for a lookup that found nothing: ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when
    /// the service and name exist with other arguments, else ``ServiceHiveError/notRegistered(_:chain:)``.
    func missingError(
        _ key: RegistrationKey,
        _ serviceType: Any.Type,
        _ argumentTypes: [Any.Type],
        _ missing: Missing,
        chain: [ServiceHive.ServiceKey]
    ) -> ServiceHiveError {
        var requested = ServiceHive.ServiceKey(
            service: typeName(serviceType), name: key.name, argumentTypes: argumentTypes.map(typeName))
        let sameName = missing.candidates.filter { $0.key.name == key.name }
        guard sameName.isEmpty else {
            var registered: [[String]] = []
            for entry in sameName where !registered.contains(entry.argumentTypes.map(typeName)) {
                registered.append(entry.argumentTypes.map(typeName))
            }
            return .argumentMismatch(requested, registered: registered, chain: chain)
        }
        var names: [String?] = []
        for entry in missing.candidates where !names.contains(entry.key.name) { names.append(entry.key.name) }
        requested.notes = LookupNotes(
            registeredNames: names, providedByChildren: missing.providedByChildren,
            neededByModules: missing.neededByModules)
        return .notRegistered(requested, chain: chain)
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
