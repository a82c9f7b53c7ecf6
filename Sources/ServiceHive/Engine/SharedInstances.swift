extension HiveCore {
    // MARK: - Shared instances

    /// The instance of a `.singleton`, `.weak` or named-scope registration; `nil` after waiting for a construction
    /// that has since ended, when the caller must look again.
    ///
    /// An instance cached beside its registration is shared with every task, unless an override layer of the current
    /// task overrides something it was built from: then that layer gets an instance of its own. An override's
    /// instances belong to its layer, or to a layer inside it that overrides something they were built from.
    ///
    /// - Parameter make: Builds the instance, for the registration's service type; called by this thread once it has
    ///   claimed the slot.
    func sharedInstance(
        _ found: Found,
        layers: inout Layers,
        context: ThreadContext,
        make: (PendingInstance) throws(ServiceHiveError) -> Instance
    ) throws(ServiceHiveError) -> Instance? {
        if case .construction(let construction) = found.seen {
            return try Waits.wait(for: construction, as: context.id, chain: context.chainEntries)
        }
        guard let location = location(of: found, layers: &layers) else { return used(found.instance!, context) }
        // What a test with a mock asks for on every resolve: the instance its layer keeps. No lock but the layer's.
        if let instance = layerInstance(of: found, layers: layers) { return used(instance, context) }
        return try obtain(found, at: location, layers: &layers, context: context, make: make)
    }

    /// The instance at `location`: the one cached there, or a new one that this thread builds.
    private func obtain(
        _ found: Found,
        at location: Location,
        layers: inout Layers,
        context: ThreadContext,
        make: (PendingInstance) throws(ServiceHiveError) -> Instance
    ) throws(ServiceHiveError) -> Instance? {
        switch claim(found, at: location, waiter: context.id, layers: &layers) {
        case .building(let other):
            return try Waits.wait(for: other, as: context.id, chain: context.chainEntries)
        case .elsewhere(let layer):
            return try obtain(found, at: .layer(layer), layers: &layers, context: context, make: make)
        case .instance(let instance):
            return used(instance, context)
        case .claimed(let construction):
            return try publish(found, at: location, by: construction, layers: &layers) {
                () throws(ServiceHiveError) in try make(construction)
            }
        }
    }

    /// Where the shared instance of `found` is to be obtained for the current task: the override's layer, the layer
    /// that owns an instance built from its overrides, a validation's sandbox, or beside the registration. `nil` when
    /// the instance the lookup found cached beside the registration serves as it is.
    func location(of found: Found, layers: inout Layers) -> Location? {
        if let layer = found.declaringLayer(in: layers) { return .layer(layer) }
        if let instance = found.instance {
            if let owner = owner(of: instance, layers: &layers) { return .layer(owner) }
            if !instance.isReleasedWeak { return nil }
        }
        // Everything built while validating belongs to the validation's sandbox.
        return layers.read()?.sandbox.map(Location.layer) ?? .registry(lineage[found.depth])
    }

    /// The layer that an instance built at `location` belongs to instead: the innermost layer of the current task that
    /// overrides something it was built from, when that layer is inside the location's. `nil` when it stays there.
    func layerOwning(_ instance: Instance, builtAt location: Location, layers: inout Layers) -> OverrideLayer? {
        guard !instance.dependencies.isEmpty, let owner = layers.read()?.owner(of: instance.dependencies) else {
            return nil
        }
        if case .layer(let layer) = location, owner.depth <= layer.depth { return nil }
        return owner
    }

    /// The instance of `found`'s registration that a layer of the current task keeps, when the current stack would
    /// give it to that layer: the innermost layer always, an outer one when it still owns what the instance was built
    /// from.
    func layerInstance(of found: Found, layers: Layers) -> Instance? {
        guard let stack = layers.stack else { return nil }
        var layer: OverrideLayer? = stack
        while let current = layer, current.depth >= max(found.layer, 0) {
            if let instance = current.instance(of: found.entry), !instance.isReleasedWeak {
                if current === stack { return instance }
                let owner = max(found.layer, stack.owner(of: instance.dependencies)?.depth ?? -1)
                return owner == current.depth ? instance : nil
            }
            layer = current.outer
        }
        return nil
    }

    /// Builds an instance of `found`'s registration for this thread, recording what it was built from.
    func buildInstance<Service>(
        _ found: Found,
        _: Service.Type,
        construction: PendingInstance,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Instance {
        if let instance = found.entry.instance { return instance }  // A registered instance: nothing to build.
        let view = ancestor(found.depth)
        context.beginRecording()
        let value: Service
        do throws(ServiceHiveError) {
            value = try build(found.entry, view: view, arguments: nil, context: context)
        } catch {
            _ = context.endRecording()
            throw error
        }
        let instance = found.entry.factory(of: Service.self).box(value, context.endRecording().sealed(home: familyID))
        if found.entry.hasCompletedHook {
            Waits.provide(instance, for: construction)
            try complete(found.entry, value, view: view, context: context)
        }
        return instance
    }

    /// The object of a `.weak` instance; `nil` when the caller must look again.
    func weakInstance<Service>(
        _ found: Found,
        _: Service.Type,
        layers: inout Layers,
        context: ThreadContext
    ) throws(ServiceHiveError) -> AnyObject? {
        var built: AnyObject?  // The instance just built, held here: the hive holds it only weakly.
        let instance = try sharedInstance(found, layers: &layers, context: context) {
            (construction) throws(ServiceHiveError) -> Instance in
            let value = try buildInstance(found, Service.self, construction: construction, context: context)
            let object = unsafeDowncast(value, to: Box<Service>.self).value as Any
            guard type(of: object) is AnyObject.Type else {
                throw .weakRequiresClass(found.entry.serviceKey, instanceType: typeName(type(of: object)))
            }
            built = object as AnyObject
            return Box(WeakReference(object: built), dependencies: value.dependencies)
        }
        return built ?? instance?.weakObject
    }

    /// A `.graph` instance: the one already built in this top-level resolve, or a new one.
    func graphInstance<Service>(
        _ entry: Entry,
        searched: Lineage,
        layers: Layers,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let layerID = layers.stack.map(ObjectIdentifier.init)
        if let shared = context.graphInstance(of: entry, searched: searched, layers: layerID) {
            if context.isRecording { context.record(shared.box.dependencies) }
            context.noteTrace(cached: true)
            // Safe: only this function adds graph instances, each a `Box` of its entry's service type.
            return unsafeDowncast(shared.box, to: Box<Service>.self).value
        }
        let isRecording = context.isRecording
        if isRecording { context.beginRecording() }
        let value: Service
        do throws(ServiceHiveError) {
            value = try build(entry, view: self, arguments: nil, context: context)
        } catch {
            if isRecording { _ = context.endRecording() }
            throw error
        }
        let box = entry.factory(of: Service.self).box(value, isRecording ? context.endRecording() : .none)
        context.addGraphInstance(GraphInstance(entry: entry, builtBy: id, layers: layerID, box: box))
        if entry.hasCompletedHook {
            do throws(ServiceHiveError) {
                try complete(entry, value, view: self, context: context)
            } catch {
                context.removeGraphInstance(box)
                throw error
            }
        }
        return value
    }

    // MARK: - Reading instances

    /// The layer that an instance cached beside its registration must not be shared with: the innermost layer of the
    /// current task that overrides something it was built from, or a sandbox. `nil` when it may be used here.
    func owner(of instance: Instance, layers: inout Layers) -> OverrideLayer? {
        layers.read(ifCrossing: instance.dependencies)
        return layers.stack?.owner(of: instance.dependencies)
    }

    /// `instance`, recorded as a dependency of the construction in progress; `nil` for a released weak instance.
    private func used(_ instance: Instance, _ context: ThreadContext) -> Instance? {
        guard !instance.isReleasedWeak else { return nil }
        if context.isRecording { context.record(instance.dependencies) }
        context.noteTrace(cached: true)
        return instance
    }
}

/// What is cached for a shared registration, in a hive or in an override layer: nothing, a construction in progress,
/// or an instance. Read it through ``state``.
///
/// It is two optional references rather than an enum with two class payloads, because such an enum keeps its case in
/// the pointer's spare bits, where LeakSanitizer does not recognize the pointer: it would report every instance cached
/// in a live hive as leaked.
struct Slot: Sendable {
    /// The cached instance: a `Box<Service>`, or for `.weak` a `Box<WeakReference>`.
    private(set) var instance: Instance?
    /// The construction in progress: a thread or task is running the factory, and others wait for it.
    private(set) var construction: PendingInstance?

    static let empty = Slot(instance: nil, construction: nil)
    static func building(_ construction: PendingInstance) -> Slot { Slot(instance: nil, construction: construction) }
    static func instance(_ instance: Instance) -> Slot { Slot(instance: instance, construction: nil) }

    /// What the slot holds, to switch on.
    enum State {
        case empty
        case building(PendingInstance)
        case instance(Instance)
    }

    var state: State {
        if let construction { return .building(construction) }
        if let instance { return .instance(instance) }
        return .empty
    }

    var isEmpty: Bool { instance == nil && construction == nil }

    /// Whether the slot may take a new instance: empty, or holding a released weak one. Telling loads a live weak
    /// instance's object into `live`, for the caller to let go outside the lock: its last release may run `deinit`.
    func isFree(loading live: inout AnyObject?) -> Bool {
        live = instance?.weakObject
        return construction == nil && (instance.map { $0.isWeak && live == nil } ?? true)
    }
}

/// Where a shared instance is cached: beside its registration in a hive, or in an override layer.
enum Location: Sendable {
    case registry(HiveID)
    case layer(OverrideLayer)
}

/// What claiming a slot found.
enum Claim: Sendable {
    /// The slot was free, and is now this construction's, which its claimer builds and then publishes.
    case claimed(PendingInstance)
    /// Another thread or task is building the instance.
    case building(PendingInstance)
    case instance(Instance)
    /// The instance there belongs to a layer inside the location's, where it is to be obtained instead.
    case elsewhere(OverrideLayer)
}

extension HiveCore {
    // MARK: - Claim, wait, publish: shared by the synchronous and async paths

    /// Claims the slot of `found`'s registration at `location`, unless it holds an instance or another construction.
    ///
    /// The construction is registered with `Waits` before the slot shows it, so that a thread that finds it there can
    /// wait for it, and finished again unless the claim succeeds.
    func claim(_ found: Found, at location: Location, waiter: WaiterID?, layers: inout Layers) -> Claim {
        let construction = PendingInstance(entry: found.entry, owner: waiter)
        Waits.begin(construction)
        var live: AnyObject?
        let result = withSlot(of: found.entry, at: location) { slot -> (Claim, Slot?) in
            if case .building(let other) = slot.state { return (.building(other), nil) }
            guard slot.isFree(loading: &live) else { return (.instance(slot.instance!), nil) }
            return (.claimed(construction), exchange(&slot, with: .building(construction)))
        }
        withExtendedLifetime((result?.1, live)) {}  // A released weak instance's box, or a live one's object.
        switch result?.0 ?? .claimed(construction) {  // Unregistered meanwhile: build for the caller, cache nothing.
        case .claimed:
            // Another task under these layers may have built the instance into one of them meanwhile: share it.
            guard case .registry = location, let instance = layerInstance(of: found, layers: layers) else {
                return .claimed(construction)
            }
            release(construction, of: found.entry, at: location)
            return .instance(instance)
        case .instance(let instance):
            Waits.finish(construction)
            // Published since the lookup by a task with other layers: it may belong to one of this task's instead.
            if let owner = layerOwning(instance, builtAt: location, layers: &layers) { return .elsewhere(owner) }
            return .instance(instance)
        case let other:
            Waits.finish(construction)
            return other
        }
    }

    /// Runs `build` for the construction that claimed the slot at `location`; caches the instance there, or in the
    /// layer that owns it; gives up the claim and wakes the waiters. Caches nothing when `build` throws, or where the
    /// registration was removed, or the instances reset, meanwhile.
    func publish(
        _ found: Found,
        at location: Location,
        by construction: PendingInstance,
        layers: inout Layers,
        _ build: () throws(ServiceHiveError) -> Instance
    ) throws(ServiceHiveError) -> Instance {
        let instance: Instance
        do throws(ServiceHiveError) {
            instance = try build()
        } catch {
            release(construction, of: found.entry, at: location)
            throw error
        }
        let layer = layerOwning(instance, builtAt: location, layers: &layers)
        var released: [Slot?] = [], live: AnyObject?  // Let go outside the locks, as in `claim`.
        if let layer {
            released.append(
                withSlot(of: found.entry, at: .layer(layer)) { slot in
                    slot.isFree(loading: &live) ? exchange(&slot, with: .instance(instance)) : nil
                } ?? nil)
        }
        released.append(
            withSlot(of: found.entry, at: location) { slot -> Slot? in
                guard case .building(let current) = slot.state, current === construction else { return nil }
                let stale = construction.dropped.withLock { !$0.isEmpty && instance.dependencies.uses(any: $0) }
                return exchange(&slot, with: layer == nil && !stale ? .instance(instance) : .empty)
            } ?? nil)
        Waits.finish(construction)
        withExtendedLifetime((released, live)) {}
        return instance
    }

    /// Gives up a claim, and wakes the waiters.
    func release(_ construction: PendingInstance, of entry: Entry, at location: Location) {
        let released = withSlot(of: entry, at: location) { slot -> Slot? in
            guard case .building(let current) = slot.state, current === construction else { return nil }
            return exchange(&slot, with: .empty)
        }
        Waits.finish(construction)
        withExtendedLifetime(released) {}
    }

    /// Runs `body` on the slot of `entry` at `location`, with that location's lock held; `nil` when `entry` is no
    /// longer registered there.
    func withSlot<Result: Sendable>(
        of entry: Entry,
        at location: Location,
        _ body: (inout Slot) -> Result
    ) -> Result? {
        switch location {
        case .registry(let hive):
            return family.withLock { state in
                state.withRegistry(hive) { $0.withSlot(of: entry, body) } ?? nil
            }
        case .layer(let layer):
            let (result, emptied) = layer.instances.withLock { instances -> (Result, LayerSlot?) in
                let key = ObjectIdentifier(entry)
                let (result, isEmpty) = instances.update(key, empty: { LayerSlot(entry: entry, slot: .empty) }) {
                    (body(&$0.slot), $0.slot.isEmpty)
                }
                // A claim given up, or a released weak instance let go, leaves nothing for the layer to keep.
                return (result, isEmpty ? instances.removeValue(for: key) : nil)
            }
            withExtendedLifetime(emptied) {}  // Its entry, let go outside the lock.
            return result
        }
    }

    // MARK: - Forwards

    /// Caches `value`, which the forwarded registration `entry` of this hive converted from its target's cached
    /// instance `target`, in `entry`'s slot: the next resolve of it then costs what a singleton's does, where
    /// converting again cost half as much again (`Benchmarks/count-instructions 15 02`).
    ///
    /// It is recorded as built from the target, so that whatever drops the target's instance, a reset or a failed
    /// install, drops it too. Nothing is cached if `target` is no longer the target's instance.
    func cacheForwarded<Service>(_ value: Service, of entry: Entry, from target: Instance) {
        guard let targetKey = entry.target else { return }
        let unused = family.withLock { state in
            state.withRegistry(id) { registry -> Instance? in
                guard let targetRecord = registry[targetKey], targetRecord.slot.instance === target else { return nil }
                var lookups = target.dependencies.lookups
                lookups.insert(
                    Dependency(family: familyID, key: targetKey, searched: [id], entry: targetRecord.entry))
                let converted = entry.factory(of: Service.self).box(
                    value, Dependencies(lookups: lookups).sealed(home: familyID))
                let stored = registry.withSlot(of: entry) { slot -> Bool in
                    guard slot.isEmpty else { return false }
                    slot = .instance(converted)
                    return true
                }
                return stored == true ? nil : converted
            } ?? nil
        }
        withExtendedLifetime(unused) {}  // A box that found the slot taken: released outside the lock.
    }
}

extension Instance {
    /// The object of a `.weak` instance, or `nil`.
    var weakObject: AnyObject? {
        // Safe: `isWeak` is set only for a `Box<WeakReference>`.
        isWeak ? unsafeDowncast(self, to: Box<WeakReference>.self).value.object : nil
    }

    /// Whether this is a `.weak` instance whose object has been released.
    var isReleasedWeak: Bool { isWeak && weakObject == nil }
}
