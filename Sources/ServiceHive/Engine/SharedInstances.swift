// Where shared instances live, and the steps that every construction of one takes, on either path: claim the slot,
// build (in `Building.swift`), publish, or give the claim up. Where an instance lives is decided by one function,
// `HiveCore.placement(of:builtFrom:declaredAt:under:)` (`Placement.swift`); everything here asks it.

/// What is cached for a shared registration, in a hive or in an override layer: nothing, an instance being built, or an
/// instance. Read it through ``state``.
///
/// It is two optional references rather than an enum with two class payloads, because such an enum keeps its case in
/// the pointer's spare bits, where LeakSanitizer does not recognize the pointer: it would report every instance cached
/// in a live hive as leaked.
struct Slot: Sendable {
    /// The cached instance: a `Box<Service>`, or for `.weak` a `WeakInstance`.
    private(set) var instance: Instance?
    /// The instance being built: a thread or task is running the factory, and others wait for it.
    private(set) var pending: PendingInstance?

    static let empty = Slot(instance: nil, pending: nil)
    static func building(_ pending: PendingInstance) -> Slot { Slot(instance: nil, pending: pending) }
    static func instance(_ instance: Instance) -> Slot { Slot(instance: instance, pending: nil) }

    /// What the slot holds, to switch on.
    enum State {
        case empty
        case building(PendingInstance)
        case instance(Instance)
    }

    var state: State {
        if let pending { return .building(pending) }
        if let instance { return .instance(instance) }
        return .empty
    }

    var isEmpty: Bool { instance == nil && pending == nil }

    /// Whether the slot may take a new instance: empty, or holding a released weak one. Telling loads a live weak
    /// instance's object into `live`, for the caller to let go outside the lock: its last release may run `deinit`.
    func isFree(loading live: inout AnyObject?) -> Bool {
        live = instance?.weakObject
        return pending == nil && (instance.map { $0.isWeak && live == nil } ?? true)
    }
}

/// Where a shared instance is cached: beside its registration in a hive, or in an override layer.
enum Location: Sendable {
    case registry(HiveID)
    case layer(OverrideLayer)

    /// The depth of the location's layer, or -1 beside a registration.
    var depth: Int {
        guard case .layer(let layer) = self else { return -1 }
        return layer.depth
    }
}

/// What claiming a slot found.
enum Claim: Sendable {
    /// The slot was free, and is now this construction's, which its claimant builds and then publishes.
    case claimed(PendingInstance)
    /// Another thread or task is building the instance.
    case building(PendingInstance)
    case instance(Instance)
    /// The instance there belongs to a layer inside the location's, where it is to be obtained instead.
    case elsewhere(OverrideLayer)
}

extension HiveCore {
    // MARK: - Where an instance lives, asked of the placement rule

    /// Where the shared instance of `found` is to be obtained for the current task, as the placement rule says: the
    /// layer that owns the instance cached beside the registration; else, for one to build, where its construction
    /// starts (the override's layer, a validation's sandbox, or beside the registration). `nil` when the instance the
    /// lookup found cached beside the registration serves as it is.
    func location(of found: Found, layers: inout Layers) -> Location? {
        let lifetime = Placed.instance(found.entry.lifetime)
        if let instance = found.instance, found.layer < 0 {
            // Cached: weighed under the layers the lookup read, and another family's, if it was built from its services.
            layers.read(ifCrossing: instance.dependencies)
            let home = placement(
                of: lifetime, builtFrom: instance.dependencies, declaredAt: -1, under: layers.innermost)
            if case .layer(let owner) = home { return .layer(owner) }
            if !instance.isReleasedWeak { return nil }
        }
        // To build: under the task's layers, whatever its family has, since everything built while validating belongs
        // to the validation's sandbox.
        switch placement(of: lifetime, declaredAt: found.layer, under: layers.read()) {
        case .layer(let layer): return .layer(layer)
        default: return .registry(lineage[found.depth])
        }
    }

    /// The layer that `instance`, built at `location`, belongs to instead, as the placement rule says: one inside the
    /// location's, when the current task overrides something it was built from there. `nil` when it stays at
    /// `location`.
    ///
    /// Unlike a lookup, this reads the task-local even when the instance's family has no live layer: what a
    /// validation's sandbox builds through another family's hive is the sandbox's too.
    func layerOwning(_ instance: Instance, of entry: Entry, builtAt location: Location, layers: inout Layers)
        -> OverrideLayer?
    {
        let home = placement(
            of: .instance(entry.lifetime), builtFrom: instance.dependencies, declaredAt: location.depth,
            under: layers.read())
        guard case .layer(let owner) = home, owner.depth > location.depth else { return nil }
        return owner
    }

    /// The instance of `found`'s registration that a layer of the current task keeps, when the placement rule puts it
    /// there under the current stack: the innermost layer's always, since no layer inside it can own it; an outer
    /// one's when the rule still places it in that layer.
    func layerInstance(of found: Found, layers: Layers) -> Instance? {
        guard let stack = layers.innermost else { return nil }
        var layer: OverrideLayer? = stack
        while let current = layer, current.depth >= max(found.layer, 0) {
            if let instance = current.instance(of: found.entry), !instance.isReleasedWeak {
                if current === stack { return instance }
                let home = placement(
                    of: .instance(found.entry.lifetime), builtFrom: instance.dependencies, declaredAt: found.layer,
                    under: stack)
                guard case .layer(let owner) = home, owner === current else { return nil }
                return instance
            }
            layer = current.outer
        }
        return nil
    }

    // MARK: - Claim and publish

    /// Claims the slot of `found`'s registration at `location`, unless it holds an instance or another construction.
    ///
    /// The construction is registered with `Waits` before the slot shows it, so that a thread that finds it there can
    /// wait for it, and finished again unless the claim succeeds.
    ///
    /// - Parameter claimant: The thread that will build the instance, or `nil` for a construction that runs in a task
    ///   of its own.
    func claim(_ found: Found, at location: Location, claimant: WaiterID?, layers: inout Layers) -> Claim {
        let pending = PendingInstance(entry: found.entry, owner: claimant)
        Waits.begin(pending)
        var live: AnyObject?
        let result = withSlot(of: found.entry, at: location) { slot -> (Claim, Slot?) in
            if case .building(let other) = slot.state { return (.building(other), nil) }
            guard slot.isFree(loading: &live) else { return (.instance(slot.instance!), nil) }
            return (.claimed(pending), exchange(&slot, with: .building(pending)))
        }
        withExtendedLifetime((result?.1, live)) {}  // A released weak instance's box, or a live one's object.
        switch result?.0 ?? .claimed(pending) {  // Unregistered meanwhile: build for the caller, cache nothing.
        case .claimed:
            // Another task under these layers may have built the instance into one of them meanwhile: share it.
            guard case .registry = location, let instance = layerInstance(of: found, layers: layers) else {
                return .claimed(pending)
            }
            release(pending, of: found.entry, at: location)
            return .instance(instance)
        case .instance(let instance):
            Waits.finish(pending)
            // Published since the lookup by a task with other layers: it may belong to one of this task's instead.
            if let owner = layerOwning(instance, of: found.entry, builtAt: location, layers: &layers) {
                return .elsewhere(owner)
            }
            return .instance(instance)
        case let other:
            Waits.finish(pending)
            return other
        }
    }

    /// Caches `instance`, which the construction that claimed the slot at `location` built, there or in the layer it
    /// belongs to; gives up the claim and wakes the waiters. Caches nothing where the registration was removed, or the
    /// instances reset, meanwhile.
    func publish(
        _ instance: Instance, of found: Found, at location: Location, by pending: PendingInstance, layers: inout Layers
    ) {
        let layer = layerOwning(instance, of: found.entry, builtAt: location, layers: &layers)
        var released: [Slot?] = [], live: AnyObject?  // Let go outside the locks, as in `claim`.
        if let layer {
            released.append(
                withSlot(of: found.entry, at: .layer(layer)) { slot in
                    slot.isFree(loading: &live) ? exchange(&slot, with: .instance(instance)) : nil
                } ?? nil)
        }
        released.append(
            withSlot(of: found.entry, at: location) { slot -> Slot? in
                guard case .building(let current) = slot.state, current === pending else { return nil }
                let stale = pending.dropped.withLock { !$0.isEmpty && instance.dependencies.uses(any: $0) }
                return exchange(&slot, with: layer == nil && !stale ? .instance(instance) : .empty)
            } ?? nil)
        Waits.finish(pending)
        withExtendedLifetime((released, live)) {}
    }

    /// Gives up a claim whose construction failed, and wakes the waiters.
    func release(_ pending: PendingInstance, of entry: Entry, at location: Location) {
        let released = withSlot(of: entry, at: location) { slot -> Slot? in
            guard case .building(let current) = slot.state, current === pending else { return nil }
            return exchange(&slot, with: .empty)
        }
        Waits.finish(pending)
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

    /// Converts the cached instance `target` of the registration that `entry`, a forward of this hive, forwards to,
    /// and caches the result in `entry`'s slot: the next resolve of it then costs what a singleton's does, where
    /// converting again cost half as much again (`Benchmarks/count-instructions 15 02`).
    ///
    /// It is recorded as built from the target, so that whatever drops the target's instance, a reset or a failed
    /// install, drops it too. Nothing is cached if `target` is no longer the target's instance.
    func convertForwarded(_ target: Instance, of entry: Entry) -> Instance {
        guard let targetKey = entry.target else { return entry.factory.converted(target, .none) }
        return family.withLock { state -> Instance in
            var lookups = target.dependencies.lookups
            if let targetRecord = state.hives[id.index].registry[targetKey] {
                lookups.insert(Dependency(family: familyID, key: targetKey, searched: [id], entry: targetRecord.entry))
            }
            let converted = entry.factory.converted(target, Dependencies(lookups: lookups).sealed(home: familyID))
            _ = state.withRegistry(id) { registry in
                guard registry[targetKey]?.slot.instance === target else { return }
                registry.withSlot(of: entry) { slot in
                    if slot.isEmpty { slot = .instance(converted) }
                }
            }
            return converted  // Returned, so not released under the lock when the slot was taken.
        }
    }
}

extension Instance {
    /// The object of a `.weak` instance, or `nil`.
    var weakObject: AnyObject? {
        // Safe: `isWeak` is set only for a `WeakInstance`.
        isWeak ? unsafeDowncast(self, to: WeakInstance.self).object : nil
    }

    /// The service of a `.weak` instance, as built, while the caller holds `object`, loaded from ``weakObject``.
    /// `Service` must be the type it was built as. Not an `Optional`, whose metadata a generic caller would look up on
    /// every resolve (`Benchmarks/count-instructions 19c`: 3,653 instructions, against 3,291).
    func weakService<Service>(as _: Service.Type, holding object: AnyObject) -> Service {
        // Safe: `isWeak` is set only for a `WeakInstance`.
        unsafeDowncast(self, to: WeakInstance.self).service(as: Service.self, holding: object)
    }

    /// Whether this is a `.weak` instance whose object has been released.
    var isReleasedWeak: Bool { isWeak && weakObject == nil }
}
