/// Where a shared instance is cached: beside its registration in a hive, or in an override layer.
enum Location: Sendable {
    case registry(HiveID)
    case layer(OverrideLayer)
}

/// What claiming a slot found.
enum Claim: Sendable {
    /// The slot was free, and is now this construction's.
    case claimed
    /// Another thread or task is building the instance.
    case building(Construction)
    case instance(Instance)
}

extension HiveCore {
    /// A `.singleton`, `.weak` or named-scope instance; `nil` after waiting for a construction that has since ended,
    /// when the caller must look again.
    ///
    /// An instance cached beside its registration is shared with every task, unless an override layer of the current
    /// task overrides something it was built from: then that layer gets an instance of its own. An override's
    /// instances belong to its layer.
    func sharedInstance<Service>(
        _ found: Found,
        layers: inout LayerView,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service? {
        if let layer = found.layer {
            return try obtain(found, at: .layer(layer), layers: &layers, context: context)
        }
        switch found.slot {
        case .instance(let cached):
            if let owner = owner(of: cached, layers: &layers) {
                return try obtain(found, at: .layer(owner), layers: &layers, context: context)
            }
            if let value: Service = value(of: cached, entry: found.entry) {
                if context.isRecording { context.record(cached.dependencies) }
                return value
            }
        case .building(let construction):
            try Waits.wait(for: construction, as: context.id, chain: context.chainEntries)
            return nil
        case .empty:
            break
        }
        // Everything built while validating belongs to the validation's sandbox.
        let location = layers.read()?.sandbox.map(Location.layer) ?? .registry(found.owner)
        return try obtain(found, at: location, layers: &layers, context: context)
    }

    /// The instance at `location`: the one cached there, or a new one that this thread builds.
    private func obtain<Service>(
        _ found: Found,
        at location: Location,
        layers: inout LayerView,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service? {
        let construction = Construction(entry: found.entry, owner: context.id)
        Waits.begin(construction)
        switch claim(found.entry, at: location, for: construction) {
        case .claimed:
            break
        case .building(let other):
            Waits.finish(construction)
            try Waits.wait(for: other, as: context.id, chain: context.chainEntries)
            return nil
        case .instance(let cached):
            Waits.finish(construction)
            if case .layer(let layer) = location, let owner = owner(of: cached, layers: &layers), owner !== layer {
                return try obtain(found, at: .layer(owner), layers: &layers, context: context)
            }
            return used(cached, of: found.entry, context: context)
        }
        // Another task under these layers may have built the instance into one of them: share it.
        if case .registry = location, let (layer, cached) = layerInstance(of: found.entry, layers: layers),
            layer === layers.stack?.owner(of: cached.dependencies),
            let value: Service = used(cached, of: found.entry, context: context)
        {
            release(construction, of: found.entry, at: location)
            return value
        }
        let value: Service = try build(found, at: location, construction: construction, layers: &layers, context: context)
        return value
    }

    /// Builds a claimed shared instance, caches it where it belongs, and wakes the waiters.
    private func build<Service>(
        _ found: Found,
        at location: Location,
        construction: Construction,
        layers: inout LayerView,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Service {
        let entry = found.entry
        context.beginRecording()
        let value: Service
        do throws(ServiceHiveError) {
            value = try build(entry, view: ancestor(found.searched.count - 1), arguments: nil, context: context)
        } catch {
            _ = context.endRecording()
            release(construction, of: entry, at: location)
            throw error
        }
        let dependencies = context.endRecording().sealed(home: familyID)
        let box: Instance
        if entry.lifetime == .weak {
            guard type(of: value as Any) is AnyObject.Type else {
                release(construction, of: entry, at: location)
                throw .weakRequiresClass(entry.serviceKey, instanceType: typeName(type(of: value as Any)))
            }
            box = Box(WeakReference(object: value as AnyObject), dependencies: dependencies)
        } else {
            box = Box(value, dependencies: dependencies)
        }
        // Built from an override, or in another family's layer: it belongs to that layer, not to the world.
        var owner: OverrideLayer?
        if case .registry = location, !dependencies.isEmpty {
            owner = (dependencies.crossesFamilies ? layers.read() : layers.stack)?.owner(of: dependencies)
        }
        publish(box, of: entry, at: location, movingTo: owner, by: construction)
        return value
    }

    // MARK: - Reading instances

    /// The layer that an instance cached beside its registration must not be shared with: the innermost layer of
    /// the current task that overrides something it was built from, or a sandbox. `nil` when it may be used here.
    private func owner(of cached: Instance, layers: inout LayerView) -> OverrideLayer? {
        if case .unknown = layers, !cached.dependencies.crossesFamilies { return nil }
        return layers.read()?.owner(of: cached.dependencies)
    }

    /// The instance of `entry` cached in the innermost layer of the current task that has one.
    private func layerInstance(of entry: Entry, layers: LayerView) -> (OverrideLayer, Instance)? {
        guard let stack = layers.stack else { return nil }
        for layer in stack.stack {
            if case .instance(let cached)? = layer.instances.withLock({ $0[ObjectIdentifier(entry)]?.slot }) {
                return (layer, cached)
            }
        }
        return nil
    }

    /// The value of `cached`, recorded as a dependency of the construction in progress; `nil` for a `.weak` instance
    /// that has been released.
    private func used<Service>(_ cached: Instance, of entry: Entry, context: ThreadContext) -> Service? {
        guard let value: Service = value(of: cached, entry: entry) else { return nil }
        if context.isRecording { context.record(cached.dependencies) }
        return value
    }

    /// The cached instance, or `nil` for a `.weak` instance that has been released.
    private func value<Service>(of cached: Instance, entry: Entry) -> Service? {
        guard entry.lifetime == .weak else {
            // Safe: only `publish` caches instances, each a `Box<Service>` of its entry's service type.
            return unsafeDowncast(cached, to: Box<Service>.self).value
        }
        // Safe, likewise, for the `Box<WeakReference>` of a `.weak` entry, whose object was built as a `Service`.
        guard let object = unsafeDowncast(cached, to: Box<WeakReference>.self).value.object else { return nil }
        return (object as! Service)
    }

    // MARK: - Slots

    /// Claims the slot of `entry` at `location`, unless it holds an instance or another construction.
    private func claim(_ entry: Entry, at location: Location, for construction: Construction) -> Claim {
        let result = withSlot(of: entry, at: location) { slot -> (Claim, Slot?) in
            switch slot {
            case .building(let other):
                return (.building(other), nil)
            case .instance(let cached) where !isReleasedWeak(cached, entry: entry):
                return (.instance(cached), nil)
            case .empty, .instance:
                return (.claimed, exchange(&slot, with: .building(construction)))
            }
        }
        withExtendedLifetime(result?.1) {}  // A released weak instance's box, let go outside the lock.
        return result?.0 ?? .claimed  // Unregistered meanwhile: build for this caller alone, and cache nothing.
    }

    /// Caches `cached`, in `layer` if given, else where it was claimed; gives up the claim; wakes the waiters.
    /// Caches nothing where the registration was removed, or the instances reset, meanwhile.
    private func publish(
        _ cached: Instance,
        of entry: Entry,
        at location: Location,
        movingTo layer: OverrideLayer?,
        by construction: Construction
    ) {
        var released: [Slot?] = []
        if let layer {
            released.append(
                withSlot(of: entry, at: .layer(layer)) { slot in
                    isFree(slot, entry: entry) ? exchange(&slot, with: .instance(cached)) : nil
                } ?? nil)
        }
        released.append(
            withSlot(of: entry, at: location) { slot -> Slot? in
                guard case .building(let current) = slot, current === construction else { return nil }
                return exchange(&slot, with: layer == nil ? .instance(cached) : .empty)
            } ?? nil)
        Waits.finish(construction)
        withExtendedLifetime(released) {}
    }

    /// Gives up a claim after the factory failed, and wakes the waiters.
    private func release(_ construction: Construction, of entry: Entry, at location: Location) {
        let released = withSlot(of: entry, at: location) { slot -> Slot? in
            guard case .building(let current) = slot, current === construction else { return nil }
            return exchange(&slot, with: .empty)
        }
        Waits.finish(construction)
        withExtendedLifetime(released) {}
    }

    /// Runs `body` on the slot of `entry` at `location`, with that location's lock held; `nil` when `entry` is no
    /// longer registered there.
    private func withSlot<Result: Sendable>(
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

    private func isFree(_ slot: Slot, entry: Entry) -> Bool {
        switch slot {
        case .empty: return true
        case .building: return false
        case .instance(let cached): return isReleasedWeak(cached, entry: entry)
        }
    }

    private func isReleasedWeak(_ cached: Instance, entry: Entry) -> Bool {
        entry.lifetime == .weak && unsafeDowncast(cached, to: Box<WeakReference>.self).value.object == nil
    }
}

extension Found {
    /// The hive whose registration answered.
    var owner: HiveID { searched[searched.index(before: searched.endIndex)] }
}
