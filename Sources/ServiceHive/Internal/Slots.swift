extension HiveCore {
    // MARK: - Slots

    /// Claims the slot of `entry` at `location`, unless it holds an instance or another construction.
    ///
    /// `construction` is registered with `Waits` before the slot shows it, so that a thread that finds it there can
    /// wait for it, and finished again unless the claim succeeds.
    func claim(_ entry: Entry, at location: Location, for construction: Construction) -> Claim {
        Waits.begin(construction)
        let result = withSlot(of: entry, at: location) { slot -> (Claim, Slot?) in
            switch slot.state {
            case .building(let other):
                return (.building(other), nil)
            case .instance(let instance) where !instance.isReleasedWeak:
                return (.instance(instance), nil)
            case .empty, .instance:
                return (.claimed, exchange(&slot, with: .building(construction)))
            }
        }
        withExtendedLifetime(result?.1) {}  // A released weak instance's box, let go outside the lock.
        let claim = result?.0 ?? .claimed  // Unregistered meanwhile: build for this caller alone, and cache nothing.
        if case .claimed = claim {} else { Waits.finish(construction) }
        return claim
    }

    /// Caches `instance`, in `layer` if given, else where it was claimed; gives up the claim; wakes the waiters.
    /// Caches nothing where the registration was removed, or the instances reset, meanwhile.
    func publish(
        _ instance: Instance,
        of entry: Entry,
        at location: Location,
        movingTo layer: OverrideLayer?,
        by construction: Construction
    ) {
        var released: [Slot?] = []
        if let layer {
            released.append(
                withSlot(of: entry, at: .layer(layer)) { slot in
                    slot.isFree ? exchange(&slot, with: .instance(instance)) : nil
                } ?? nil)
        }
        released.append(
            withSlot(of: entry, at: location) { slot -> Slot? in
                guard case .building(let current) = slot.state, current === construction else { return nil }
                let stale = construction.dropped.withLock { !$0.isEmpty && instance.dependencies.uses(any: $0) }
                return exchange(&slot, with: layer == nil && !stale ? .instance(instance) : .empty)
            } ?? nil)
        Waits.finish(construction)
        withExtendedLifetime(released) {}
    }

    /// Gives up a claim after the factory failed, and wakes the waiters.
    func release(_ construction: Construction, of entry: Entry, at location: Location) {
        let released = withSlot(of: entry, at: location) { slot -> Slot? in
            guard case .building(let current) = slot.state, current === construction else { return nil }
            return exchange(&slot, with: .empty)
        }
        Waits.finish(construction)
        withExtendedLifetime(released) {}
    }

    /// Caches `value`, which the forwarded registration `entry` of this hive converted from its target's cached
    /// instance `target`, in `entry`'s slot: the next resolve of it then costs what a singleton's does, where
    /// converting again cost half as much again (benchmark `15 forwarded singleton resolve`,
    /// `Benchmarks/count-instructions 15 02`).
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
            return layer.instances.withLock { instances in
                let key = ObjectIdentifier(entry)
                var stored = instances[key] ?? LayerSlot(entry: entry, slot: .empty)
                let result = body(&stored.slot)
                instances[key] = stored.slot.isEmpty ? nil : stored
                return result
            }
        }
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

extension Slot {
    /// Whether the slot may take a new instance: empty, or holding a released weak one.
    var isFree: Bool {
        switch state {
        case .empty: return true
        case .building: return false
        case .instance(let instance): return instance.isReleasedWeak
        }
    }
}
