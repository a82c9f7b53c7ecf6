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
        make: (Construction) throws(ServiceHiveError) -> Instance
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
        make: (Construction) throws(ServiceHiveError) -> Instance
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
        construction: Construction,
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
