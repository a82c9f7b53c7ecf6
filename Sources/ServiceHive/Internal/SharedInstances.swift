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
    // MARK: - Shared instances

    /// The instance of a `.singleton`, `.weak` or named-scope registration; `nil` after waiting for a construction
    /// that has since ended, when the caller must look again.
    ///
    /// An instance cached beside its registration is shared with every task, unless an override layer of the current
    /// task overrides something it was built from: then that layer gets an instance of its own. An override's
    /// instances belong to its layer.
    ///
    /// - Parameter make: Builds the instance, for the registration's service type; called by this thread once it has
    ///   claimed the slot.
    func sharedInstance(
        _ found: Found,
        layers: inout LayerView,
        context: ThreadContext,
        make: (Construction) throws(ServiceHiveError) -> Instance
    ) throws(ServiceHiveError) -> Instance? {
        if case .building(let construction) = found.slot.state, found.layer == nil {
            return try Waits.wait(for: construction, as: context.id, chain: context.chainEntries)
        }
        guard let location = location(of: found, layers: &layers) else {
            return used(found.slot.instance!, context: context)
        }
        return try obtain(found, at: location, layers: &layers, context: context, make: make)
    }

    /// Where the shared instance of `found` is to be obtained for the current task: the override's layer, the layer
    /// that owns an instance built from its overrides, a validation's sandbox, or beside the registration. `nil` when
    /// the instance the lookup found cached beside the registration serves as it is.
    func location(of found: Found, layers: inout LayerView) -> Location? {
        if let layer = found.layer { return .layer(layer) }
        if let instance = found.slot.instance {
            if let owner = owner(of: instance, layers: &layers) { return .layer(owner) }
            if !instance.isReleasedWeak { return nil }
        }
        // Everything built while validating belongs to the validation's sandbox.
        return layers.read()?.sandbox.map(Location.layer) ?? .registry(found.owner)
    }

    /// The layer that an instance just built beside its registration belongs to instead: the innermost layer of the
    /// current task that overrides something it was built from, in this family or another. `nil` when it stays there.
    /// `location(of:layers:)` has read the layers before it chose the registration, so reading them here is free.
    func layerOwning(_ instance: Instance, builtAt location: Location, layers: inout LayerView) -> OverrideLayer? {
        guard case .registry = location, !instance.dependencies.isEmpty else { return nil }
        return layers.read()?.owner(of: instance.dependencies)
    }

    /// The instance at `location`: the one cached there, or a new one that this thread builds.
    private func obtain(
        _ found: Found,
        at location: Location,
        layers: inout LayerView,
        context: ThreadContext,
        make: (Construction) throws(ServiceHiveError) -> Instance
    ) throws(ServiceHiveError) -> Instance? {
        let construction = Construction(entry: found.entry, owner: context.id)
        switch claim(found.entry, at: location, for: construction) {
        case .claimed:
            break
        case .building(let other):
            return try Waits.wait(for: other, as: context.id, chain: context.chainEntries)
        case .instance(let instance):
            if case .layer(let layer) = location, let owner = owner(of: instance, layers: &layers), owner !== layer {
                return try obtain(found, at: .layer(owner), layers: &layers, context: context, make: make)
            }
            return used(instance, context: context)
        }
        // Another task under these layers may have built the instance into one of them: share it.
        if case .registry = location, let (layer, instance) = layerInstance(of: found.entry, layers: layers),
            layer === layers.stack?.owner(of: instance.dependencies)
        {
            release(construction, of: found.entry, at: location)
            return used(instance, context: context)
        }
        let instance: Instance
        do throws(ServiceHiveError) {
            instance = try make(construction)
        } catch {
            release(construction, of: found.entry, at: location)
            throw error
        }
        let owner = layerOwning(instance, builtAt: location, layers: &layers)
        publish(instance, of: found.entry, at: location, movingTo: owner, by: construction)
        return instance
    }

    /// Builds an instance of `found`'s registration for this thread, recording what it was built from.
    func buildInstance<Service>(
        _ found: Found,
        _: Service.Type,
        construction: Construction,
        context: ThreadContext
    ) throws(ServiceHiveError) -> Instance {
        if let instance = found.entry.instance { return instance }  // A registered instance: nothing to build.
        let view = ancestor(found.searched.count - 1)
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
        layers: inout LayerView,
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
        layers: LayerView,
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
    func owner(of instance: Instance, layers: inout LayerView) -> OverrideLayer? {
        if case .unknown = layers, !instance.dependencies.crossesFamilies { return nil }
        return layers.read()?.owner(of: instance.dependencies)
    }

    /// The instance of `entry` cached in the innermost layer of the current task that has one.
    func layerInstance(of entry: Entry, layers: LayerView) -> (OverrideLayer, Instance)? {
        var found: Instance?
        let layer = layers.stack?.first { layer in
            guard let instance = layer.instances.withLock({ $0[ObjectIdentifier(entry)]?.slot.instance }),
                !instance.isReleasedWeak
            else { return false }
            found = instance
            return true
        }
        guard let layer, let found else { return nil }
        return (layer, found)
    }

    /// `instance`, recorded as a dependency of the construction in progress; `nil` for a released weak instance.
    private func used(_ instance: Instance, context: ThreadContext) -> Instance? {
        guard !instance.isReleasedWeak else { return nil }
        if context.isRecording { context.record(instance.dependencies) }
        context.noteTrace(cached: true)
        return instance
    }
}
