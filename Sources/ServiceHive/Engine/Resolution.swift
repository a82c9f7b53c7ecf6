// What a resolve does with the registration its lookup found, when the lookup could not simply return a cached
// instance: one step, shared by the synchronous and async paths, says "use this", "wait for that" or "build it"; each
// path then waits and builds in its own way (`Building.swift`), and looks again after waiting.

/// What a resolve does next with a registration it found: the answer of ``HiveCore/step(_:_:for:layers:context:)``.
enum Step {
    /// Return this instance: a shared one that this resolve may use, or the `.graph` instance of its top-level resolve.
    case use(Instance)
    /// Another thread or task is building the instance: wait for it to finish, then look again.
    case wait(for: PendingInstance)
    /// Build the instance, then keep it where the destination says.
    case build(Destination)
    /// The instance found is a `.weak` one whose object has gone: look again.
    case lookAgain
}

/// Where an instance that a resolve builds goes once built.
enum Destination {
    /// Nowhere: a transient instance is the caller's alone.
    case caller
    /// The top-level resolve's `.graph` instances, under the innermost override layer named.
    case graph(layers: ObjectIdentifier?)
    /// The slot this resolve claimed, at `location`: it publishes the instance there, or in the layer it belongs to.
    case slot(PendingInstance, at: Location)
}

/// A resolve in progress, as the step sees it: on a thread (``ThreadContext``) or in a task (``AsyncContext``).
protocol ResolveContext {
    /// Whether this is an async resolve, which may build an async factory's instance.
    var isAsync: Bool { get }
    /// Who claims a slot for a construction this resolve runs itself: the thread; `nil` for an async resolve, whose
    /// construction runs in a task of its own and waits as itself.
    var claimant: WaiterID? { get }
    /// Whether a shared construction is in progress that must record what this resolve looks up.
    var isRecording: Bool { get }
    /// Whether this resolve is traced, so the registrations it finds are noted.
    var isTracing: Bool { get }
    /// Records a lookup, or what an instance used was built from, for the shared constructions in progress.
    func record(_ dependency: Dependency)
    func record(_ dependencies: Dependencies)
    /// Notes, in a traced resolve, the scope of the registration found, or that a cached instance answered.
    func noteTrace(scope: ServiceHive.Scope?, cached: Bool)
    /// The `.graph` instance of `entry` that this top-level resolve already built, from a hive that `searched` covers,
    /// under the same innermost layer.
    func graphInstance(of entry: Entry, searched: Lineage, layers: ObjectIdentifier?) -> Instance?
    /// The factories running in this resolve, outermost first, as errors print them.
    func chainKeys() -> [ServiceHive.ServiceKey]
}

extension HiveCore {
    // MARK: - The step

    /// What a resolve does with the registration or override `found`: the one switch on a registration's lifetime.
    ///
    /// - Throws: ``ServiceHiveError/requiresAsync(_:chain:)`` when a synchronous resolve finds an async factory.
    func step<Context: ResolveContext>(
        _ found: Found,
        for key: RegistrationKey,
        layers: inout Layers,
        context: Context
    ) throws(ServiceHiveError) -> Step {
        let entry = found.entry
        if context.isRecording {
            context.record(Dependency(family: familyID, key: key, searched: lineage[...found.depth], entry: entry))
        }
        if context.isTracing { context.noteTrace(scope: entry.scope, cached: entry.instance != nil) }
        if entry.isAsync && !context.isAsync {
            throw .requiresAsync(entry.serviceKey, chain: context.chainKeys())
        }
        switch entry.lifetime {
        case .transient:
            return .build(.caller)
        case .forward:
            // A forward converts its target's cached instance; with none cached, it is built as a transient that
            // resolves the target.
            guard case .target(let target) = found.seen else {
                return .build(.caller)
            }
            return .use(convertForwarded(target, of: entry))
        case .graph:
            guard case .graph(let innermost) = placement(of: .instance(.graph), under: layers.innermost) else {
                preconditionFailure("the placement rule keeps a .graph instance in its graph")
            }
            if let shared = context.graphInstance(of: entry, searched: lineage[...found.depth], layers: innermost) {
                return used(shared, context)
            }
            return .build(.graph(layers: innermost))
        case .shared, .weak:
            return sharedStep(found, layers: &layers, context: context)
        }
    }

    /// The step for a shared instance: the one cached where this resolve may use it, the one a layer of the current
    /// task keeps, or else a claim of the slot where it is to be cached.
    private func sharedStep<Context: ResolveContext>(
        _ found: Found,
        layers: inout Layers,
        context: Context
    ) -> Step {
        guard var location = location(of: found, layers: &layers) else { return used(found.instance!, context) }
        // What a test with a mock asks for on every resolve: the instance its layer keeps. No lock but the layer's.
        if let instance = layerInstance(of: found, layers: layers) { return used(instance, context) }
        while true {
            switch claim(found, at: location, claimant: context.claimant, layers: &layers) {
            case .claimed(let pending):
                return .build(.slot(pending, at: location))
            case .building(let other):
                return .wait(for: other)
            case .instance(let instance):
                return used(instance, context)
            case .elsewhere(let layer):
                location = .layer(layer)
            }
        }
    }

    /// `instance`, recorded as a dependency of the constructions in progress; look again for a released weak one.
    private func used<Context: ResolveContext>(_ instance: Instance, _ context: Context) -> Step {
        guard !instance.isReleasedWeak else { return .lookAgain }
        if context.isRecording { context.record(instance.dependencies) }
        if context.isTracing { context.noteTrace(scope: nil, cached: true) }
        return .use(instance)
    }

    // MARK: - The synchronous path

    /// Acts on what the first lookup of a synchronous resolve found, as one node of this thread's trace when it traces.
    /// Out of line, so that the cached path of `resolve` carries none of it (the comment there gives the counts).
    @inline(never)
    func resolveFound<Service>(
        _ found: Found, _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ layers: inout Layers, _ isTraced: Bool
    ) throws(ServiceHiveError) -> Service {
        let context = ThreadContext.current
        if isTraced || context.isTracing {
            // A contribution's trace names it, with its site; any other resolve's, the key asked for.
            return try reporting(
                found.entry.isContribution ? found.entry.serviceKey : ServiceHive.ServiceKey(Service.self, key), context
            ) { () throws(ServiceHiveError) in
                try resolve(found, key, arguments, argumentTypes, argumentsMatch, &layers, context)
            }
        }
        return try topLevel(context) { () throws(ServiceHiveError) in
            try resolve(found, key, arguments, argumentTypes, argumentsMatch, &layers, context)
        }
    }

    /// Takes the steps of a synchronous resolve from `found` until one gives the instance: it waits by blocking this
    /// thread, and builds on it.
    private func resolve<Service>(
        _ found: Found, _ key: RegistrationKey, _ arguments: UnsafeRawPointer?, _ argumentTypes: () -> [Any.Type],
        _ argumentsMatch: ([Any.Type]) -> Bool, _ layers: inout Layers, _ context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        var found = found
        while true {
            switch try step(found, for: key, layers: &layers, context: context) {
            case .use(let instance):
                if !instance.isWeak { return instance.value() }
                if let object = instance.weakObject {
                    if !context.isRecordingOrTracing { keepWeakAnswer(key, found.entry, instance, layers: layers) }
                    return instance.weakService(as: Service.self, holding: object)
                }
            case .wait(let pending):
                // A provisional instance: the one this thread builds, whose post-construction hook resolves it.
                if let provisional = try Waits.wait(for: pending, as: context.id, chain: context.chainEntries) {
                    if !provisional.isWeak { return provisional.value() }
                    if let object = provisional.weakObject {
                        return provisional.weakService(as: Service.self, holding: object)
                    }
                }
            case .build(let destination):
                return try build(found, for: destination, arguments: arguments, layers: &layers, context: context)
            case .lookAgain:
                break
            }
            let lookup = lookUp(key, layers: &layers, argumentsMatch: argumentsMatch)
            guard case .found(let again) = lookup else {
                if context.isRecording { context.record(miss(key)) }
                return try unanswered(lookup, key, argumentTypes(), chain: context.chainKeys())
            }
            found = again
        }
    }
}

extension HiveCore {
    /// Keeps, for this thread's next resolves of `key`, the live `.weak` instance that this resolve returns the object
    /// of, so that they read it without the lock, as `keepAnswer` keeps a cached instance. Outside override layers only.
    ///
    /// It takes the lock again, once per thread and instance: kept by the lookup, before unlocking, the transient
    /// resolve cost more (`Benchmarks/count-instructions 01`: 877 instructions, against 790).
    func keepWeakAnswer(_ key: RegistrationKey, _ entry: Entry, _ instance: Instance, layers: Layers) {
        // What `keepAnswer` would refuse, and can be told without the lock, is refused before it, so that such a resolve
        // takes the lock once, as before: a contribution, which `resolveAll` resolves by a key no resolve asks again;
        // a key with arguments; an instance built from another family's services; and one that a hive nearer than the
        // root may register, such as a child's own.
        guard layers.innermost == nil, key.arguments == nil, !entry.isContribution,
            !instance.dependencies.crossesFamilies, !nearerHivesMayRegister(key.service)
        else { return }
        let state = family.lock()
        // Unretained, as `keepAnswer` keeps every answer (`count-instructions 02`, see `ThreadAnswers`); the caller
        // holds the instance until this returns.
        keepAnswer(key, Unmanaged.passUnretained(instance), layers: layers, in: state.pointee)
        family.unlock()
    }
}

extension HiveCore {
    /// Whether a hive of the lineage nearer than the root may register `service`, read without the lock
    /// (`HiveReads.mayRegister`, whose bits are never cleared): then no answer found in the root holds from this hive.
    func nearerHivesMayRegister(_ service: ObjectIdentifier) -> Bool {
        var core = self
        while let parent = core.parent {
            if core.reads._withUnsafeGuaranteedRef({ $0.mayRegister(service) }) { return true }
            core = parent
        }
        return false
    }
}

extension Instance {
    /// The service that this instance, not a `.weak` one, holds. `Service` must be the service type of the registration
    /// that built it.
    func value<Service>() -> Service {
        // Safe: only `Maker.box` makes the instances cached for an entry, each a `Box` of its service type.
        unsafeDowncast(self, to: Box<Service>.self).value
    }
}
