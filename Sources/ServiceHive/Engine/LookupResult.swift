/// What the one lookup found, under the family lock: only unretained references and numbers, valid while the lock is
/// held. A resolve copies a cached value out, or retains what it needs with ``retained(in:)``, before unlocking.
enum LookupAnswer {
    /// An instance this resolve may return as it is.
    case cached(Unmanaged<Instance>)
    /// A registration or an override to act on.
    case found(Match)
    case missing
    /// The resolver's hive has been released.
    case released
    /// A strict override layer on a searched hive has no override for the key.
    case notOverridden
    /// The resolve requires `Sendable`, and the registration found is not sure its instances are.
    case notSendable
    /// The hive keeps what it was given apart from its registry, and the resolve must find a registration: it moves
    /// them into the registry (`HiveCore.family`), and resolves again. Only a lookup that took the lock through
    /// `sharedFamily` gets it.
    case moveProvisions

    /// A registration or an override that the lookup found.
    struct Match {
        let entry: Unmanaged<Entry>
        /// The entry's lifetime, read while the lookup had it at hand.
        let lifetime: Lifetime
        /// Whether the entry's factory is async.
        let isAsync: Bool
        /// Where the hive that answered is in the lineage.
        let depth: Int
        /// The depth of the override layer that declared the entry, or -1 for a hive's registration.
        let layer: Int
        /// What the registration's slot holds.
        let instance: Unmanaged<Instance>?
        /// For a forward of the asking hive that no layer affects: its target's cached instance, to convert.
        let target: Unmanaged<Instance>?
    }

    /// What the lookup found, retained, for use after unlocking; for a miss, what it saw, for the error.
    func retained(
        _ key: RegistrationKey, in core: HiveCore, _ state: borrowing HiveFamily, layers: Layers
    ) -> LookupResult {
        switch self {
        case .cached: preconditionFailure("a cached instance is read before unlocking")
        case .missing: return .missing(core.missing(key, in: state, layers: layers.innermost))
        case .released: return .released
        case .notOverridden: return .notOverridden
        case .notSendable: return .notSendable
        case .moveProvisions: return .moveProvisions
        case .found(let match): return .found(match.retained())
        }
    }
}

extension LookupAnswer.Match {
    /// What the lookup found, retained, for use after unlocking.
    func retained() -> Found {
        var seen = Found.Seen.nothing
        if let instance {
            seen = .instance(instance.takeUnretainedValue())
        } else if let target {
            seen = .target(target.takeUnretainedValue())
        }
        return Found(entry: entry.takeUnretainedValue(), depth: depth, layer: layer, seen: seen)
    }
}

/// What a lookup found, retained.
enum LookupResult {
    case found(Found)
    case missing(Missing)
    case released, notOverridden, notSendable, moveProvisions
}

/// A registration or an override that a lookup found, retained.
///
/// What the lookup saw beside it is one enum rather than optional references: the compiler merges the outlined
/// destroys of several optional class references into one function that destroys them through the generic
/// `Optional` witnesses, which cost 156 instructions on every transient resolve
/// (`Benchmarks/count-instructions 01`, when measured).
struct Found {
    let entry: Entry
    /// Where the hive that answered is in the lineage.
    let depth: Int
    /// The depth of the override layer that declared the entry, or -1 for a hive's registration.
    let layer: Int
    let seen: Seen

    /// What the lookup saw in the registration's slot, or of a forward's target.
    enum Seen {
        case nothing
        case instance(Instance)
        /// For a forward of the asking hive that no layer affects: its target's cached instance, to convert.
        case target(Instance)
    }

    /// The instance cached beside the registration, if the lookup saw one.
    var instance: Instance? {
        if case .instance(let instance) = seen { return instance }
        return nil
    }
}
