// Every resolve starts here, with the key it looks up: an answer its thread kept, checked without the lock
// (`CachedReads.swift`), or the lookup under its family's lock, which returns a cached instance before unlocking.
// Whatever else it finds, it hands to `Resolution.swift` (or, for a transient, to `Building.swift`).

// MARK: - The key

/// The key a registration is stored under: the service type, its name and its argument types.
struct RegistrationKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let name: String?
    let arguments: ArgumentSignature?
    /// Whether the resolve that looks this key up returns the service typed as `Sendable`, so that it must refuse a
    /// registration made without knowing that its instances are. Not part of the key's identity.
    var requiresSendable = false

    /// Inlined, with the one below, into every public resolve: called instead, each resolve pays a call and a retain and
    /// release of the name (`Benchmarks/count-instructions 02`: 372 instructions, not 307).
    @inline(__always)
    init<Service>(
        _: Service.Type, name: String?, arguments: ArgumentSignature? = nil, requiresSendable: Bool = false
    ) {
        service = ObjectIdentifier(Service.self)
        self.name = name
        self.arguments = arguments
        self.requiresSendable = requiresSendable
    }

    /// The key of a resolve that returns `Service` typed as `Sendable`; inlined, as the one above.
    @inline(__always)
    init<Service: Sendable>(sendable _: Service.Type, name: String?) {
        self.init(Service.self, name: name, requiresSendable: true)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.service == rhs.service && lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(name)
        hasher.combine(arguments)
    }

    /// Whether this is the unnamed registration without arguments, which most resolves ask for.
    var isPlain: Bool { name == nil && arguments == nil }
}

extension HiveCore {
    // MARK: - The entry points

    /// Resolves `key` as a `Service`. Every synchronous resolve, on a hive or on a resolver, comes here.
    ///
    /// It takes the family lock once for the lookup. A cached instance that the resolve may use as it is has its value
    /// copied before unlocking; anything else is retained, and acted on after unlocking: a
    /// transient here, by `buildTransient`; the rest by `resolveFound`, which takes the steps of `Resolution.swift`.
    ///
    /// - Parameters:
    ///   - arguments: The runtime arguments, laid out by `ArgumentPack.store`, or `nil` for none.
    ///   - argumentTypes: The runtime arguments' types, for error messages.
    ///   - argumentsMatch: Whether an entry's argument types are exactly the runtime arguments' types. A signature
    ///     is a fingerprint, so this check, not the lookup, is what guarantees the factory reads the right types.
    func resolve<Service>(
        _ key: RegistrationKey, arguments: UnsafeRawPointer? = nil, argumentTypes: () -> [Any.Type] = { [] },
        argumentsMatch: ([Any.Type]) -> Bool = { $0.isEmpty }
    ) throws(ServiceHiveError) -> Service {
        // Read once, for the answers this thread kept and, for a transient, to build on.
        let thread = ThreadContext.current
        var mayCache = true
        if ThreadContext.mayRecordOrTrace {
            if !thread.isRecording, let context = AsyncContext.recordingCurrent {
                // In the task of an async factory that builds a shared instance: this resolve counts for that instance,
                // through whichever hive or resolver it is made, as it would on the thread of a synchronous factory.
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in
                    try resolve(key, arguments: arguments, argumentTypes: argumentTypes, argumentsMatch: argumentsMatch)
                }
            }
            mayCache = !thread.isRecordingOrTracing  // What it finds is recorded, or joins the trace.
        }
        // This thread found it cached before, and nothing has changed since: no lock.
        if mayCache, let instance = keptInstance(key, async: false, on: thread) {
            if instance._withUnsafeGuaranteedRef({ $0.isWeak }) {
                return try resolveKeptWeak(instance, key, arguments, argumentTypes, argumentsMatch, thread)
            } else {
                let value: Service = cachedValue(instance)
                thread.endRead()
                return value
            }
        }
        // This thread found it a transient before, and nothing has changed since: built without the lock. Never while
        // the family has a live override layer, where the task's layers decide, through the lock; told here, before
        // the call (`Benchmarks/count-instructions 08a`: 1,198 instructions when `keptTransient` told it, 1,175).
        if mayCache, !reads._withUnsafeGuaranteedRef({ $0.isLayered }), let entry = keptTransient(key, on: thread) {
            return try topLevel(thread) { () throws(ServiceHiveError) in
                try buildTransient(entry, arguments: nil, context: thread)
            }
        }
        return try resolveUnderLock(key, arguments, argumentTypes, argumentsMatch, thread, mayCache: mayCache)
    }

    /// `resolve`, for what this thread kept no answer for: the lookup, under the family lock.
    ///
    /// Out of line: in `resolve`, with the kept transient's build beside it, the compiler no longer inlined the lookup
    /// (`Benchmarks/count-instructions 08a`: 1,291 instructions, against 1,127 before transients were kept).
    @inline(never)
    func resolveUnderLock<Service>(
        _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ thread: ThreadContext, mayCache: Bool
    ) throws(ServiceHiveError) -> Service {
        var layers = Layers.unread
        let state = sharedFamily.lock()
        let hit = lookUp(
            key, in: state.pointee, layers: &layers, argumentsMatch: argumentsMatch, mayCache: mayCache,
            async: false)
        if case .cached(let instance) = hit {
            // Copied before unlocking. Unlocked in line rather than with `defer`, which the compiler may outline into
            // a call of its own (`count-instructions 02`: 9 instructions).
            let value: Service = cachedValue(instance)
            if mayCache { keepAnswer(key, instance, layers: layers, in: state.pointee) }
            sharedFamily.unlock()
            return value
        }
        guard case .found(let match) = hit else {
            let lookup = hit.retained(key, in: self, state.pointee, layers: layers)
            sharedFamily.unlock()
            return try resolveUnanswered(key, argumentTypes, lookup)
        }
        let isTraced = state.pointee.diagnostics.trace != nil
        // A transient, the commonest registration, is built here when nothing else needs doing, from its entry alone;
        // every other case, and this one when nested, takes the lifetime switch through `resolveFound`. Through it,
        // `Benchmarks/count-instructions 01` cost 871 instructions, not 811, and kept here, the rest of it cost a
        // cached singleton's resolve more registers to save (`02`: 324, not 312), when measured.
        guard match.lifetime == .transient, !match.isAsync, !isTraced else {
            let found = match.retained()
            sharedFamily.unlock()
            return try resolveFound(found, key, arguments, argumentTypes, argumentsMatch, &layers, isTraced)
        }
        let entry = match.entry.takeUnretainedValue()
        // The registry's own transient, which this thread may build without the lock next time.
        if mayCache, key.arguments == nil, match.layer < 0 {
            keepTransientAnswer(key, match.entry, layers: layers, in: state.pointee)
        }
        sharedFamily.unlock()
        guard !thread.isRecordingOrTracing else {
            let found = Found(entry: entry, depth: match.depth, layer: match.layer, seen: .nothing)
            return try resolveFound(found, key, arguments, argumentTypes, argumentsMatch, &layers, isTraced)
        }
        return try topLevel(thread) { () throws(ServiceHiveError) in
            try buildTransient(entry, arguments: arguments, context: thread)
        }
    }

    /// Resolves `key` as a `Service`, awaiting async factories: every `resolveAsync` comes here. A registration with a
    /// synchronous factory is resolved by the synchronous path; an async one is found, then one switch on its scope.
    ///
    /// Inlined into each public `resolveAsync`, so that returning a cached instance takes one async call, not two, each
    /// with a task allocation: called, `Benchmarks/count-instructions 18` cost 650 instructions, not 435.
    @inline(__always)
    nonisolated(nonsending) func resolveAsync<Service>(_ key: RegistrationKey) async throws(ServiceHiveError)
        -> Service
    {
        // A cached instance first, before a top-level resolve makes a context of its own, and before reading the
        // task-local at all while no construction anywhere records what it uses. It is read as `resolve` reads it.
        if AsyncContext.recordingCurrent == nil {
            let thread = ThreadContext.current
            if let instance = keptInstance(key, async: true, on: thread) {
                let value: Service = cachedValue(instance)
                thread.endRead()
                return value
            }
            var layers = Layers.unread
            let state = sharedFamily.lock()
            let hit = lookUp(
                key, in: state.pointee, layers: &layers, argumentsMatch: { $0.isEmpty }, mayCache: true,
                async: true)
            if case .cached(let instance) = hit {
                let value: Service = cachedValue(instance)
                keepAnswer(key, instance, layers: layers, in: state.pointee)
                sharedFamily.unlock()
                return value
            }
            sharedFamily.unlock()
        }
        return try await resolveAsyncUncached(key)
    }

    /// Resolves `key` from the `.weak` instance `instance`, which this thread kept an answer for: its object, without
    /// the lock, unless it has been released; then the answer is forgotten, and the resolve takes the lock, which
    /// builds the instance again. Ends the read that `keptInstance` began.
    ///
    /// Out of line, and returning the service rather than an `Optional` of it, so that `resolve` neither looks up that
    /// `Optional`'s metadata nor keeps the registers a weak read needs (`Benchmarks/count-instructions 02`: 574
    /// instructions when this returned an `Optional`, 250 when `resolve` cast the object itself, against 222).
    @inline(never)
    func resolveKeptWeak<Service>(
        _ instance: Unmanaged<Instance>, _ key: RegistrationKey, _ arguments: UnsafeRawPointer?,
        _ argumentTypes: () -> [Any.Type], _ argumentsMatch: ([Any.Type]) -> Bool, _ thread: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        // Safe: a `.weak` instance is a `WeakInstance`, kept alive until the read ends. Unretained, as every kept
        // answer is read: retaining it would write its count, which every reading thread shares
        // (`Benchmarks/ThreadScaling`; `count-instructions 31`: 653 instructions).
        let weak = Unmanaged<WeakInstance>.fromOpaque(instance.toOpaque())
        if let object = weak._withUnsafeGuaranteedRef({ $0.object }) {
            guard weak._withUnsafeGuaranteedRef({ $0.keepsBits }) else {
                // Cast after the read ends: a first cast may take long, and a writer may be waiting for this read.
                thread.endRead()
                return object as! Service  // Safe: it was built as one.
            }
            let service = weak._withUnsafeGuaranteedRef { $0.copiedService(as: Service.self, holding: object) }
            thread.endRead()
            return service
        }
        thread.endRead()
        thread.state.pointee.answers.forget(key)
        return try resolve(key, arguments: arguments, argumentTypes: argumentTypes, argumentsMatch: argumentsMatch)
    }

    /// The value of a cached instance that the lookup found, copied with the family lock held.
    ///
    /// The registry keeps the instance alive while the lock is held, so it is read unretained. Together with
    /// `Locked.lock()`, which lets the value be copied before unlocking, this took a sixth off a cached singleton's
    /// resolve (`Benchmarks/count-instructions 02`: 407 → 338 when they were introduced). Inlined, because the async
    /// path otherwise calls it (`count-instructions 18`: 447 instructions, not 434).
    @inline(__always)
    func cachedValue<Service>(_ instance: Unmanaged<Instance>) -> Service {
        // Safe: only `Maker.box` makes the instances cached for an entry, each a `Box` of its service type.
        instance._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Box<Service>.self).value }
    }

    // MARK: - The lookup

    /// The one lookup: finds the registration for `key` as this hive sees it, with the family lock held. For each hive
    /// of the lineage, the current task's overrides of that hive come first, then the hive's own registrations.
    ///
    /// - Parameters:
    ///   - mayCache: Whether a cached instance that this resolve may use as it is can be answered as `.cached`; a
    ///     resolve that must record or trace what it finds asks for `.found` instead, as one does while the family has
    ///     a trace handler.
    ///   - async: Whether the caller is `resolveAsync`, which may take the cached instance of an async factory.
    ///
    /// Inlined into each resolve: called, `Benchmarks/count-instructions 02` cost 387 instructions, not 307 (01: 884,
    /// not 792; 18: 517, not 427).
    @inline(__always)
    func lookUp(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        argumentsMatch: ([Any.Type]) -> Bool,
        mayCache: Bool,
        async: Bool
    ) -> LookupAnswer {
        if !layers.isRead, state.liveLayers != 0 { _ = layers.read() }
        guard state.hives[lineage[lineage.startIndex].index].isLive(lineage[lineage.startIndex]) else {
            return .released
        }
        let mayCache = mayCache && state.diagnostics.trace == nil  // A trace notes what it found cached.
        // What a child was given, while it is kept apart from its registry, comes first, as its registrations would
        // (`Provision.swift`).
        if hasProvisions,
            let answer = answerFromProvisions(key, in: state.provisions, mayCache: mayCache, layers: layers)
        {
            return answer
        }
        // Through a buffer pointer, the registries are read in place; through the array, each would be copied.
        return state.hives.withUnsafeBufferPointer { hives in
            for depth in lineage.indices {
                let id = lineage[depth]
                if let stack = layers.innermost, stack.mayAnswer(for: key.service) {
                    let hive = Override.Hive(family: familyID, id: id)
                    switch stack.answer(for: key, on: hive, argumentsMatch: argumentsMatch) {
                    case .override(let entry, let layer):
                        let (unsure, lifetime, isAsync) = entry._withUnsafeGuaranteedRef {
                            (key.requiresSendable && $0.unsureSendable, $0.lifetime, $0.isAsync)
                        }
                        if unsure { return .notSendable }
                        if mayCache, keeps(lifetime, isAsync, async), let instance = stack.kept(entry) {
                            return .cached(instance)
                        }
                        return .found(
                            LookupAnswer.Match(
                                entry: entry, lifetime: lifetime, isAsync: isAsync, depth: depth, layer: layer,
                                instance: nil, target: nil))
                    case .strict: return .notOverridden
                    case .none: break
                    }
                }
                guard let peek = hives[id.index].registry.peek(key) else { continue }
                let (matches, unsure, lifetime, isAsync) = peek.entry._withUnsafeGuaranteedRef {
                    (
                        key.arguments == nil || argumentsMatch($0.argumentTypes),
                        key.requiresSendable && $0.unsureSendable, $0.lifetime, $0.isAsync
                    )
                }
                guard matches else { continue }
                if unsure { return .notSendable }
                if mayCache, let instance = peek.instance {
                    let (crosses, services) = instance._withUnsafeGuaranteedRef {
                        ($0.dependencies.crossesFamilies, $0.dependencies.services)
                    }
                    if !layers.isRead, crosses { _ = layers.read() }
                    if isUsable(lifetime, isAsync, depth: depth, layers: layers, async: async) {
                        // Where the placement rule may put it in a layer (`mayPlaceInLayer`), the instance that the
                        // innermost layer keeps comes first: the rule put it there, and no layer inside the innermost
                        // can own it. It is what a test that overrides a singleton's dependency asks for on every
                        // resolve, found in one probe, where asking the rule about the cached one reads its lookups
                        // (`Benchmarks/count-instructions 08f`: 652 instructions, not 2,268).
                        guard let stack = layers.innermost, mayPlaceInLayer(builtFrom: services, under: stack) else {
                            return .cached(instance)
                        }
                        if keeps(lifetime, isAsync, async), let kept = stack.kept(peek.entry) { return .cached(kept) }
                        let home = instance._withUnsafeGuaranteedRef {
                            placement(of: .instance(lifetime), builtFrom: $0.dependencies, under: stack)
                        }
                        if case .registry = home { return .cached(instance) }
                    }
                } else if mayCache, keeps(lifetime, isAsync, async), let stack = layers.innermost,
                    let instance = stack.kept(peek.entry)
                {
                    return .cached(instance)
                }
                let forwardable =
                    lifetime == .forward && mayCache && peek.instance == nil && depth == lineage.startIndex
                let target = forwardable ? forwardTarget(of: peek.entry, in: hives[id.index].registry, &layers) : nil
                return .found(
                    LookupAnswer.Match(
                        entry: peek.entry, lifetime: lifetime, isAsync: isAsync, depth: depth, layer: -1,
                        instance: peek.instance, target: target))
            }
            return .missing
        }
    }

    /// Whether the instance cached beside a registration found at `depth`, with `lifetime`, may serve this resolve as
    /// it is, unless a layer of the current task owns it: the caller can take it, and for a forward, the placement
    /// rule keeps its conversion beside it.
    func isUsable(_ lifetime: Lifetime, _ isAsync: Bool, depth: Int, layers: Layers, async: Bool) -> Bool {
        // A forward resolves its target as the asking hive would: a child of the forwarding hive may register the
        // target itself.
        if lifetime == .forward {
            guard depth == lineage.startIndex,
                case .registry = placement(of: .instance(.forward), under: layers.innermost)
            else { return false }
            return true
        }
        // A weak instance is a reference to unwrap; an async factory's is not for a synchronous resolve.
        return lifetime != .weak && (async || !isAsync)
    }

    /// Whether an override layer may keep the instance of a registration with `lifetime`, for this resolve: a shared
    /// one, and an async factory's only for `resolveAsync`.
    ///
    /// The innermost layer's instance serves any resolve under a stack that it tops (`layerInstance(of:layers:)` says
    /// why). That is what a test with a mock asks for on every resolve: found by the lookup, under the family lock, it
    /// costs one more lock and one probe, where taking the step of a shared instance cost
    /// `Benchmarks/count-instructions 08c` 1,505 instructions, not 786.
    private func keeps(_ lifetime: Lifetime, _ isAsync: Bool, _ async: Bool) -> Bool {
        lifetime == .shared && (async || !isAsync)
    }

    /// For a forward of the asking hive whose converted instance is not cached: its target's instance, when the target
    /// is a singleton of the same registry already built, and no layer of the current task can override it.
    private func forwardTarget(
        of entry: Unmanaged<Entry>,
        in registry: Registry,
        _ layers: inout Layers
    ) -> Unmanaged<Instance>? {
        guard let target = entry._withUnsafeGuaranteedRef({ $0.target }), let peek = registry.peek(target),
            let instance = peek.instance, peek.entry._withUnsafeGuaranteedRef({ $0.lifetime == .shared })
        else { return nil }
        layers.read(ifCrossing: instance._withUnsafeGuaranteedRef { $0.dependencies })
        guard case .registry = placement(of: .instance(.forward), under: layers.innermost) else { return nil }
        return instance
    }

    /// The lookup, taking the lock; for every resolve but the first lookup of a synchronous one.
    func lookUp(_ key: RegistrationKey, layers: inout Layers, argumentsMatch: ([Any.Type]) -> Bool) -> LookupResult {
        let state = family.lock()
        defer { family.unlock() }
        return lookUp(
            key, in: state.pointee, layers: &layers, argumentsMatch: argumentsMatch, mayCache: false, async: false
        )
        .retained(key, in: self, state.pointee, layers: layers)
    }

    /// Whether a lookup of `key` finds a registration whose argument types `matches` accepts.
    func contains(_ key: RegistrationKey, matches: ([Any.Type]) -> Bool) -> Bool {
        var layers = Layers.unread
        _ = layers.read()
        if case .found = lookUp(key, layers: &layers, argumentsMatch: matches) { return true }
        return false
    }

    /// The lookup a construction made when nothing answered: a dependency too, since an override would answer it.
    func miss(_ key: RegistrationKey) -> Dependency {
        Dependency(family: familyID, key: key, searched: lineage, entry: nil)
    }
}

// MARK: - Override layers, as the lookup reads them

/// The current task's override layers, as a resolve sees them: read only when the family has live layers, or when a
/// cached instance that depends on another family's services asks for it, since reading the task-local costs about
/// 20 ns.
struct Layers {
    /// What the task-local binds, once read. Held rather than its innermost layer, which would cost a retain and a
    /// release more on every resolve inside overrides (`Benchmarks/count-instructions 08c`: 688 instructions, not 736;
    /// 08b: 507, not 543).
    ///
    /// Unretained: the task-local's storage holds it until the `withValue` that bound it returns, after any resolve
    /// inside (a `Task` made there keeps a retained copy). Held strongly, every resolve released it, read or not: 02
    /// cost 319 instructions, not 305; 15, 321, not 307; 18, 439, not 424.
    private var binding: Unmanaged<OverrideLayer.Binding>?

    /// Not read yet.
    static var unread: Layers { Layers(binding: nil) }
    var isRead: Bool { binding != nil }

    /// The innermost layer, once read: through it, every layer of the task (`OverrideLayer.layer(at:)`).
    var innermost: OverrideLayer? { binding?._withUnsafeGuaranteedRef { $0.innermost } }

    /// Reads the task's layers, once, and returns the innermost.
    mutating func read() -> OverrideLayer? {
        if binding == nil { binding = Unmanaged.passUnretained(OverrideLayer.bound) }
        return innermost
    }

    /// Reads the task's layers, if `dependencies` reach into another family, whose layers a lookup of this family does not
    /// otherwise read.
    mutating func read(ifCrossing dependencies: Dependencies) {
        if !isRead, dependencies.crossesFamilies { _ = read() }
    }
}
