/// What a lookup that found nothing saw, for its error.
struct Missing: Sendable {
    /// The entries registered for the same service under other names or arguments, in the hives searched.
    let candidates: [Entry]
    /// Whether child hives of this family have provided the service.
    let providedByChildren: Bool
    /// The modules installed in the hives searched that declare they need the service.
    let neededByModules: [String]
}

extension HiveCore {
    /// The error, or the `nil` of an `Optional`, for a first lookup that found no registration.
    @inline(never)
    func resolveUnanswered<Service>(
        _ key: RegistrationKey,
        _ argumentTypes: () -> [Any.Type],
        _ lookup: LookupResult
    ) throws(ServiceHiveError) -> Service {
        if case .moveProvisions = lookup {
            // Here rather than in the resolve, whose lookup was no longer inlined with another case to handle
            // (`Benchmarks/count-instructions 01`: 873 instructions, not 801).
            _ = family  // Moves them.
            return try resolve(key, argumentTypes: argumentTypes)
        }
        let context = ThreadContext.current
        return try reporting(ServiceHive.ServiceKey(Service.self, key), context) { () throws(ServiceHiveError) in
            if context.isRecording { context.record(miss(key)) }
            return try unanswered(lookup, key, argumentTypes(), chain: context.chainKeys())
        }
    }

    /// What a lookup for `key` that found nothing saw, with the family lock held, so that its error describes the
    /// same state.
    func missing(_ key: RegistrationKey, in state: borrowing HiveFamily, layers: OverrideLayer?) -> Missing {
        var candidates = providedCandidates(for: key.service, in: state)
        for id in lineage {
            candidates += layers?.overrides(of: key.service, on: Override.Hive(family: familyID, id: id)) ?? []
            candidates += state.hives[id.index].registry.records(of: key.service).map(\.entry)
        }
        return Missing(
            candidates: candidates, providedByChildren: state.providedByChildren.index(of: key.service) != nil,
            neededByModules: state.modules.isEmpty ? [] : InstalledModule.needing(key, in: lineage, of: state.modules))
    }

    /// What a lookup that found no registration gives: `nil` for an `Optional` service whose wrapped service has
    /// none, or the error.
    func unanswered<Service>(
        _ lookup: LookupResult,
        _ key: RegistrationKey,
        _ argumentTypes: [Any.Type],
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Service {
        let requested = ServiceHive.ServiceKey(
            service: typeName(Service.self), name: key.name, argumentTypes: argumentTypes.map(typeName))
        switch lookup {
        case .missing(let missing):
            if let deferred = Service.self as? any DeferredService.Type, key.arguments == nil {
                // Safe: `deferred(from:key:)` returns `Self`, which is `Service`.
                return deferred.deferred(from: self, key: key) as! Service
            }
            if let optional = Service.self as? any OptionalService.Type, key.arguments == nil {
                // Safe: `resolveWrapped` returns `Self`, which is `Service`.
                return try optional.resolveWrapped(with: self, key: key, chain: chain) as! Service
            }
            throw missingError(key, Service.self, argumentTypes, missing, chain: chain)
        case .released:
            throw .hiveReleased(requested)
        case .notOverridden:
            throw .notOverridden(requested, chain: chain)
        case .notSendable:
            throw .notSendable(requested, chain: chain)
        case .found:
            preconditionFailure("a lookup that found a registration is answered")
        case .moveProvisions:
            preconditionFailure("a resolve moves the provisions and resolves again")
        }
    }

    /// The error for a lookup that found nothing: ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when
    /// the service and name exist with other arguments, else ``ServiceHiveError/notRegistered(_:chain:)``.
    func missingError(
        _ key: RegistrationKey,
        _ serviceType: Any.Type,
        _ argumentTypes: [Any.Type],
        _ missing: Missing,
        chain: [ServiceHive.ServiceKey]
    ) -> ServiceHiveError {
        var requested = ServiceHive.ServiceKey(
            service: typeName(serviceType), name: key.name, argumentTypes: argumentTypes.map(typeName))
        let sameName = missing.candidates.filter { $0.key.name == key.name }
        guard sameName.isEmpty else {
            var registered: [[String]] = []
            for entry in sameName where !registered.contains(entry.argumentTypes.map(typeName)) {
                registered.append(entry.argumentTypes.map(typeName))
            }
            return .argumentMismatch(requested, registered: registered, chain: chain)
        }
        var names: [String?] = []
        for entry in missing.candidates where !names.contains(entry.key.name) { names.append(entry.key.name) }
        requested.notes = LookupNotes(
            registeredNames: names, providedByChildren: missing.providedByChildren,
            neededByModules: missing.neededByModules)
        return .notRegistered(requested, chain: chain)
    }
}

// MARK: - Optional services

/// An `Optional` type, which resolves its wrapped service or `nil`.
protocol OptionalService {
    /// Resolves the wrapped service, or gives `nil` when it has no registration. `chain` is the chain of the
    /// resolve, to tell that resolve's own miss from a miss in one of its factories, which still throws.
    ///
    /// `key` is the key of the `Optional`: the wrapped service's has its name, and requires `Sendable` when it does.
    static func resolveWrapped(
        with core: HiveCore,
        key: RegistrationKey,
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Self
}

extension Optional: OptionalService {
    static func resolveWrapped(
        with core: HiveCore,
        key: RegistrationKey,
        chain: [ServiceHive.ServiceKey]
    ) throws(ServiceHiveError) -> Self {
        let wrapped = RegistrationKey(Wrapped.self, name: key.name, requiresSendable: key.requiresSendable)
        do {
            return .some(try core.resolve(wrapped))
        } catch .notRegistered(let missed, let missChain)
            where missChain == chain && missed == ServiceHive.ServiceKey(Wrapped.self, name: key.name)
        {
            return .none
        }
    }
}
