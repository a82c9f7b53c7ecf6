// Building an instance: a registration's factory, in the one form the resolution path calls, and the functions that
// run it on the current thread with the chain extended, and run its post-construction hook.

/// A registration's factory, in the one form the resolution path calls.
final class Maker<Service>: Sendable {
    /// Builds an instance. The pointer holds the runtime arguments, laid out by `ArgumentPack.store` for exactly the
    /// entry's argument types, or is `nil` for a registration without arguments.
    let make: @Sendable (ServiceHive.Resolver, UnsafeRawPointer?) throws -> Service
    /// The factory of an async registration; `make` is then never called.
    let makeAsync: (@Sendable (ServiceHive.Resolver) async throws -> Service)?
    /// For a forwarded registration: converts the target's cached instance, a `Box` of the target type.
    let forward: (@Sendable (Instance) -> Service)?
    /// The post-construction hook, run once the instance is where it lives: in its graph, or visible to the thread
    /// that builds a shared one.
    let completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)?
    /// `Box<Service>`, looked up once: allocating through the metatype value skips the generic metadata lookup that
    /// the resolution path, generic and not specialized for `Service`, would otherwise make on every `.graph` build.
    private let boxType: Box<Service>.Type

    init(
        _ make: @escaping @Sendable (ServiceHive.Resolver, UnsafeRawPointer?) throws -> Service,
        forward: (@Sendable (Instance) -> Service)? = nil,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        self.make = make
        makeAsync = nil
        self.forward = forward
        self.completed = completed
        boxType = Box<Service>.self
    }

    /// The factory of a registration whose closure takes no resolver. The closure that adapts it is made here, so
    /// that what a resolve runs stays in this file.
    convenience init(
        making make: @escaping @Sendable () throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)?
    ) {
        self.init({ _, _ in try make() }, completed: completed)
    }

    /// The factory of a registration whose closure resolves its dependencies through a resolver.
    convenience init(
        resolving make: @escaping @Sendable (ServiceHive.Resolver) throws -> Service,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        self.init({ resolver, _ in try make(resolver) }, completed: completed)
    }

    /// The factory of a registered instance, which returns `box`'s value. The box's type is read from `box`: looked up,
    /// it cost each instance a request's child hive provides 360 instructions more (`Benchmarks/count-instructions 12`).
    init(returning box: Box<Service>) {
        make = { _, _ in box.value }
        makeAsync = nil
        forward = nil
        completed = nil
        boxType = type(of: box)
    }

    init(async makeAsync: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service) {
        make = { _, _ in preconditionFailure("an async registration is built only by resolveAsync") }
        self.makeAsync = makeAsync
        forward = nil
        completed = nil
        boxType = Box<Service>.self
    }

    /// The value a forwarded registration resolves to: `target`, converted.
    ///
    /// Unwrapped with `!`, not `unsafelyUnwrapped`: that generic getter returns the closure at the most general
    /// abstraction, which wraps it in a thunk whose context is allocated on every resolve (benchmark
    /// `15 forwarded singleton resolve`: one allocation per resolve through `unsafelyUnwrapped`, none through `!`).
    func forwarded(_ target: Instance) -> Service {
        // An entry whose lifetime is `.forward` was made by `forward(_:name:to:named:file:line:as:)`, with a closure.
        forward!(target)
    }

    /// `value` in a box, as the hive caches it.
    func box(_ value: Service, _ dependencies: Dependencies) -> Instance {
        boxType.init(value, dependencies: dependencies)
    }
}

/// A `Maker` whose service type is not known statically.
protocol ErasedMaker: AnyObject, Sendable {
    /// For a forwarded registration: `target`, the target's cached instance, converted and boxed with `dependencies`.
    func converted(_ target: Instance, _ dependencies: Dependencies) -> Instance
    /// Resolves `key`, a key of this factory's service, from `resolver`, and discards the instance.
    func resolve(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) throws(ServiceHiveError)
    /// Resolves `key` as `resolveAsync` does, and discards the instance.
    func resolveAsync(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) async throws(ServiceHiveError)
}

extension Maker: ErasedMaker {
    func converted(_ target: Instance, _ dependencies: Dependencies) -> Instance {
        box(forwarded(target), dependencies)
    }

    func resolve(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) throws(ServiceHiveError) {
        let _: Service = try resolver.core.resolve(key)
    }

    func resolveAsync(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) async throws(ServiceHiveError) {
        let _: Service = try await resolver.core.resolveAsync(key)
    }
}

extension Entry {
    /// The factory, typed. `Service` must be this entry's service type.
    func factory<Service>(of _: Service.Type) -> Maker<Service> {
        // Safe: the designated initializer, through which every entry is made, stores a `Maker<Service>` under a
        // key derived from `Service.self`, and callers look entries up by that key. Only an entry that builds is
        // asked, and each has its maker: an instance's entry is never built, since its record holds the instance. The
        // stored maker, not `factory`, whose result would be retained and released around every build
        // (`Benchmarks/count-instructions 01`: 862 instructions, not 791).
        unsafeDowncast(maker.unsafelyUnwrapped, to: Maker<Service>.self)
    }

    /// Runs the factory. `Service` must be this entry's service type.
    func make<Service>(
        _: Service.Type,
        _ resolver: ServiceHive.Resolver,
        _ arguments: UnsafeRawPointer?
    ) throws -> Service {
        // Unmanaged: the factory is a `let` of this entry, which the caller holds, so it and its closure outlive the
        // call. Through a guaranteed reference, the call retains neither; through a strong one, the closure's
        // context is retained and released around every build. `Benchmarks/count-instructions 01`: 948 → 903.
        try Unmanaged.passUnretained(factory(of: Service.self))._withUnsafeGuaranteedRef {
            try $0.make(resolver, arguments)
        }
    }
}

extension HiveCore {
    /// Runs `resolve`, and when it is a top-level resolve, ends it on this thread and hands a failure to the hook, unless
    /// an async resolve runs it.
    /// Inlined, with `buildTransient`, into a transient's resolve: called, `Benchmarks/count-instructions 01` cost 841
    /// instructions, not 792.
    @inline(__always)
    func topLevel<Service>(
        _ context: ThreadContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        guard context.isIdle else { return try resolve() }
        defer { context.endTopLevelResolve() }
        do {
            return try resolve()
        } catch {
            if context.reportsFailures { family.withLock { $0.diagnostics.failure }?(error) }
            throw error
        }
    }

    /// Builds a transient instance from this hive's view, and runs its post-construction hook. Inlined, as `topLevel`.
    @inline(__always)
    func buildTransient<Service>(
        _ entry: Entry, arguments: UnsafeRawPointer?, context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let value: Service = try build(entry, view: self, arguments: arguments, context: context)
        if entry.hasCompletedHook { try complete(entry, value, view: self, context: context) }
        return value
    }

    /// Runs `entry`'s post-construction hook on `value`, with `entry` on the chain.
    func complete<Service>(
        _ entry: Entry, _ value: Service, view: HiveCore, context: ThreadContext
    ) throws(ServiceHiveError) {
        guard let completed = entry.factory(of: Service.self).completed else { return }
        context.push(entry)
        defer { context.pop() }
        do {
            try completed(ServiceHive.Resolver(core: view), value)
        } catch let error as ServiceHiveError {
            throw error
        } catch {
            let chain = context.chainKeys(dropping: 1)
            throw .factoryFailed(entry.serviceKey, chain: chain, underlying: CompletedHookFailure(underlying: error))
        }
    }

    /// Runs `entry`'s factory with this thread's chain extended by `entry`.
    ///
    /// - Parameter view: The hive the factory's resolver resolves from: the asking hive for a transient, the declaring
    ///   hive for a shared instance, so that a parent's singleton never captures a child's services.
    func build<Service>(
        _ entry: Entry, view: HiveCore, arguments: UnsafeRawPointer?, context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        if let instance = entry.instance {
            // Safe: `Entry.init` stores a `Box` of its own service type.
            return unsafeDowncast(instance, to: Box<Service>.self).value
        }
        if !context.isIdle, let refusal = context.refusal(toBuild: entry) { throw refusal }
        context.push(entry)
        defer { context.pop() }
        do {
            return try entry.make(Service.self, ServiceHive.Resolver(core: view), arguments)
        } catch let error as ServiceHiveError {
            throw error  // A nested resolve's error passes through, with its chain.
        } catch {
            throw .factoryFailed(entry.serviceKey, chain: context.chainKeys(dropping: 1), underlying: error)
        }
    }

    // MARK: - Building what a step decided, on this thread

    /// Builds, on this thread, the instance that a step of a synchronous resolve decided to build, and keeps it where
    /// the step said: nowhere for a transient, in the top-level resolve's graph, or in the claimed slot.
    func build<Service>(
        _ found: Found,
        for destination: Destination,
        arguments: UnsafeRawPointer?,
        layers: inout Layers,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let entry = found.entry
        switch destination {
        case .caller:
            return try buildTransient(entry, arguments: arguments, context: context)
        case .graph(let innermost):
            let isRecording = context.isRecording
            if isRecording { context.beginRecording() }
            let value: Service
            do throws(ServiceHiveError) {
                value = try self.build(entry, view: self, arguments: nil, context: context)
            } catch {
                if isRecording { _ = context.endRecording() }
                throw error
            }
            let box = entry.factory(of: Service.self).box(value, isRecording ? context.endRecording() : .none)
            context.addGraphInstance(GraphInstance(entry: entry, builtBy: id, layers: innermost, box: box))
            if entry.hasCompletedHook {
                do throws(ServiceHiveError) {
                    try complete(entry, value, view: self, context: context)
                } catch {
                    context.removeGraphInstance(box)
                    throw error
                }
            }
            return value
        case .slot(let pending, let location):
            var object: AnyObject?  // A `.weak` instance's object, held here: the hive holds it only weakly.
            let instance: Instance
            do throws(ServiceHiveError) {
                instance = try buildShared(
                    found, Service.self, pending: pending, object: &object, context: context)
            } catch {
                release(pending, of: entry, at: location)
                throw error
            }
            publish(instance, of: found, at: location, by: pending, layers: &layers)
            // Safe: the object was built as a `Service`.
            return object.map { $0 as! Service } ?? unsafeDowncast(instance, to: Box<Service>.self).value
        }
    }

    /// Builds a shared instance of `found`'s registration on this thread, from the view of the hive that declares it,
    /// recording what it is built from; runs its post-construction hook with the instance visible to this thread.
    ///
    /// - Parameter object: For a `.weak` registration, receives the object, which the instance holds weakly.
    private func buildShared<Service>(
        _ found: Found,
        _: Service.Type,
        pending: PendingInstance,
        object: inout AnyObject?,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Instance {
        let entry = found.entry
        if let instance = entry.instance { return instance }  // A registered instance: nothing to build.
        let view = ancestor(found.depth)
        context.beginRecording()
        let value: Service
        do throws(ServiceHiveError) {
            value = try build(entry, view: view, arguments: nil, context: context)
        } catch {
            _ = context.endRecording()
            throw error
        }
        let dependencies = context.endRecording().sealed(home: familyID)
        let instance: Instance
        if entry.lifetime == .weak {
            let built = value as Any
            guard type(of: built) is AnyObject.Type else {
                throw .weakRequiresClass(entry.serviceKey, instanceType: typeName(type(of: built)))
            }
            // An error goes to `AnyObject` through the error existential: cast from a generic value, as from an `Any`
            // that holds one, it crashes in the runtime on Linux (Swift 6.3.1).
            let reference = (value as? any Error).map { $0 as AnyObject } ?? built as AnyObject
            object = reference
            instance = WeakInstance(value, object: reference, dependencies: dependencies)
        } else {
            instance = entry.factory(of: Service.self).box(value, dependencies)
        }
        if entry.hasCompletedHook {
            Waits.provide(instance, for: pending)
            try complete(entry, value, view: view, context: context)
        }
        return instance
    }
}
