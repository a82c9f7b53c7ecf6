/// What a lookup that found nothing saw, for its error.
struct Missing: Sendable {
    /// The entries registered for the same service under other names or arguments, in the hives searched.
    let candidates: [Entry]
    /// Whether child hives of this family have provided the service.
    let providedByChildren: Bool
}

extension HiveCore {
    /// What a lookup for `key` that found nothing saw. Called with the family lock held, on the error path only.
    func missing(_ key: RegistrationKey, in state: borrowing FamilyState, layers: OverrideLayer?) -> Missing {
        var candidates: [Entry] = []
        for id in lineage {
            _ = layers?.first { layer in
                if layer.isOn(id, of: familyID) { candidates += layer.overrides.records(of: key.service).map(\.entry) }
                return false
            }
            candidates += state.hives[id.index].registry.records(of: key.service).map(\.entry)
        }
        return Missing(
            candidates: candidates, providedByChildren: state.providedByChildren.index(of: key.service) != nil)
    }

    /// What a lookup that found no registration gives: `nil` for an `Optional` service whose wrapped service has
    /// none, or the error.
    func unanswered<Service>(
        _ lookup: Lookup,
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
        }
    }

    /// The lookup a construction made when nothing answered: a dependency too, since an override would answer it.
    func miss(_ key: RegistrationKey) -> Dependency {
        Dependency(family: familyID, key: key, searched: lineage, entry: nil)
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
        requested.notes = LookupNotes(registeredNames: names, providedByChildren: missing.providedByChildren)
        return .notRegistered(requested, chain: chain)
    }

    /// Runs `resolve` as one node of this thread's trace, and hands a top-level tree to the trace handler.
    @inline(never)
    func traced<Service>(
        _ key: RegistrationKey,
        _: Service.Type,
        _ diagnostics: Diagnostics,
        context: ThreadContext,
        _ resolve: () throws(ServiceHiveError) -> Service
    ) throws(ServiceHiveError) -> Service {
        context.beginTrace(ServiceHive.ServiceKey(service: typeName(Service.self), name: key.name))
        do {
            let value = try resolve()
            let node = context.endTrace(failed: false)
            diagnostics.trace?(ServiceHive.Trace(root: node))
            return value
        } catch {
            let node = context.endTrace(failed: true)
            diagnostics.trace?(ServiceHive.Trace(root: node))
            diagnostics.failure?(error)
            throw error
        }
    }
}
