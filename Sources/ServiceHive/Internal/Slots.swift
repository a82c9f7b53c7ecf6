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
    private(set) var construction: Construction?

    static let empty = Slot(instance: nil, construction: nil)
    static func building(_ construction: Construction) -> Slot { Slot(instance: nil, construction: construction) }
    static func instance(_ instance: Instance) -> Slot { Slot(instance: instance, construction: nil) }

    /// What the slot holds, to switch on.
    enum State {
        case empty
        case building(Construction)
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
    case claimed(Construction)
    /// Another thread or task is building the instance.
    case building(Construction)
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
        let construction = Construction(entry: found.entry, owner: waiter)
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
        by construction: Construction,
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
    func release(_ construction: Construction, of entry: Entry, at location: Location) {
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
