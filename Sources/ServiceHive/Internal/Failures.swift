/// What a lookup that found nothing saw, for its error.
struct Missing: Sendable {
    /// The entries registered for the same service under other names or arguments, in the hives searched.
    let candidates: [Entry]
    /// Whether child hives of this family have provided the service.
    let providedByChildren: Bool
}

extension HiveCore {
    /// What a lookup for `key` that found nothing saw, with the family lock held, so that its error describes the
    /// same state.
    func missing(_ key: RegistrationKey, in state: borrowing FamilyState, layers: OverrideLayer?) -> Missing {
        var candidates: [Entry] = []
        for id in lineage {
            candidates += layers?.overrides(of: key.service, on: Override.Hive(family: familyID, id: id)) ?? []
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

/// What a registration knew about whether its service is `Sendable`.
///
/// `Sendable` is a marker protocol: it leaves no trace at run time, so `any P & Sendable` and `any P` are one type to
/// the hive, and share one key. Only the compiler knows which one a call names, and it tells the hive by choosing
/// between two overloads: the one constrained to `Service: Sendable` passes `.declared`. A registration of an
/// existential made without that knowledge is unsure, and a resolve that returns the service typed as `Sendable`
/// refuses it with ``ServiceHiveError/notSendable(_:chain:)``, instead of handing out a non-`Sendable` instance as a
/// `Sendable` one. Concrete types are never unsure: whether they are `Sendable` does not depend on how they are named.
enum Sendability: Sendable {
    /// Registered through an overload constrained to `Service: Sendable`.
    case declared
    /// Registered through an unconstrained overload.
    case unknown

    /// Whether a registration of `service` with this knowledge is unsure.
    func isUnsure(for service: Any.Type) -> Bool {
        self == .unknown && isExistential(service)
    }
}

/// Whether `type` is an existential, such as `any P` or `any Collection<Int>`.
///
/// The standard library offers no check. Every type's metadata starts with its kind, except a class's on Apple
/// platforms, which starts with a pointer; the kinds of existentials are part of Swift's stable ABI. Read on
/// registration only, never while resolving.
func isExistential(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307  // MetadataKind.existential, MetadataKind.extendedExistential
}
