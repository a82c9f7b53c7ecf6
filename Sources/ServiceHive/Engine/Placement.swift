// The one rule for where an instance lives. Every place that reads, caches, reuses, publishes or converts a shared
// instance, or a collection's snapshot, asks `HiveCore.placement(of:builtFrom:declaredAt:under:)`; ARCHITECTURE.md
// ("Who owns an instance") states the rule.

/// Where an instance lives, as the placement rule decides it.
enum Placement {
    /// Built for each resolve, and kept by nothing: a transient, a forward's conversion or a collection's snapshot
    /// while a layer may override what it is made from.
    case nowhere
    /// Kept for one top-level resolve, in its graph, under the task's innermost override layer, named by its identity.
    case graph(layers: ObjectIdentifier?)
    /// Beside its registration, in the hive that registers it: shared by every resolve that no layer owns it for.
    case registry
    /// In an override layer of the current task, which owns it.
    case layer(OverrideLayer)
}

/// What the placement rule is asked about.
enum Placed {
    /// An instance of a registration or override with this lifetime.
    case instance(Lifetime)
    /// The snapshot of a collection's cached values.
    case collection
}

extension HiveCore {
    /// Where an instance of `placed` lives for a task under the override stack `stack` (its innermost layer, or `nil`):
    ///
    /// - a transient is kept nowhere;
    /// - a `.graph` instance lives in its top-level resolve's graph, under the innermost layer;
    /// - a forward's conversion, and a collection's snapshot, live beside the registration outside any layer, and
    ///   nowhere under one, which may override what they are made from;
    /// - a shared or `.weak` instance lives in the innermost of: the layer that declared its entry (`declared`, -1 for
    ///   a hive's registration), a validation's sandbox, and every layer that overrides a lookup it was built from
    ///   (`OverrideLayer.owner(of:declaredAt:)`); beside its registration when that is none.
    ///
    /// Pure: which layers are current is the caller's to read. A caller about to build or publish a new instance reads
    /// the task's layers always, since a validation's sandbox owns what is built through another family's hive too; a
    /// caller that weighs an instance already cached reads them when its family has live layers, or the instance was
    /// built from another family's services (`Layers.read(ifCrossing:)`), as the lookup does.
    ///
    /// - Parameter dependencies: What the instance was built from; `.none` for one not built yet, which is placed where
    ///   its construction starts.
    func placement(
        of placed: Placed, builtFrom dependencies: Dependencies = .none, declaredAt declared: Int = -1,
        under stack: OverrideLayer?
    ) -> Placement {
        switch placed {
        case .instance(.transient): return .nowhere
        case .instance(.graph): return .graph(layers: stack.map(ObjectIdentifier.init))
        case .instance(.forward), .collection: return stack == nil ? .registry : .nowhere
        case .instance(.shared), .instance(.weak):
            guard let stack, let owner = stack.owner(of: dependencies, declaredAt: declared) else { return .registry }
            return .layer(owner)
        }
    }

    /// Whether the placement rule may put an instance of a hive's registration, built from `services`
    /// (`Dependencies.services`), in a layer of `stack`: a filter on the rule's inputs, read before asking it, that
    /// says `false` only when the rule would answer `.registry`.
    func mayPlaceInLayer(builtFrom services: UInt64, under stack: OverrideLayer) -> Bool {
        stack.mayOwn(services: services)
    }
}
