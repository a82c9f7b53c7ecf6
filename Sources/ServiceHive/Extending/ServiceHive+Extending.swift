// What the package's other libraries build on, with `package` access: never public. Each is named for what it does
// for any registration, and uses the registry's internals (`Entry`, `HiveFamily`, `InstallRecorder`) so that those
// libraries need not.

extension ServiceHive {
    // MARK: - Adding registrations together

    /// A registration prepared for ``registerAll(_:)``: where it is made, and how to make it once the module that
    /// makes it is known.
    package struct PendingRegistration {
        let site: RegistrationSite
        let make: (RegistrationSite) -> Entry

        /// A registration of an instance that already exists, as `register(_:name:instance:file:line:)` makes.
        package static func instance<Service>(
            _ value: Service,
            as _: Service.Type,
            name: String?,
            site: RegistrationSite
        ) -> PendingRegistration {
            PendingRegistration(site: site) { site in
                Entry(Service.self, name: name, instance: value, site: site, sendable: .unknown)
            }
        }

        /// A registration of a factory, as `register(_:name:scope:file:line:factory:completed:)` makes.
        package static func factory<Service>(
            _: Service.Type,
            name: String?,
            scope: Scope,
            site: RegistrationSite,
            make: @escaping @Sendable (Resolver) throws -> Service
        ) -> PendingRegistration {
            PendingRegistration(site: site) { site in
                Entry(
                    Service.self, name: name, scope: scope, site: site, factory: Maker(resolving: make),
                    sendable: .unknown)
            }
        }
    }

    /// Adds every pending registration to this hive, or none: when one key is taken, in this hive or earlier in
    /// `pending`, nothing is added and the error names both places. Attributed to the module being installed, and
    /// rolled back with its install, as every registration is.
    ///
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)``.
    package func registerAll(_ pending: [PendingRegistration]) throws(ServiceHiveError) {
        let recorder = InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
        let registering = recorder?.registering
        let entries = pending.map { pending in
            var site = pending.site
            site.module = registering?.module
            return pending.make(site)
        }
        /// Refuses `entries` when two of them, or one and the hive, have one place; then adds them, unless `staging`.
        func addAll(staging: Bool) throws(ServiceHiveError) {
            try family.withLock { (state) throws(ServiceHiveError) in
                var seen: [RegistrationKey: Entry] = [:]
                for entry in entries {
                    if let existing = seen[entry.key] ?? state.hives[id.index].registry[entry.key]?.entry {
                        throw .alreadyRegistered(existing.serviceKey, existing: existing.site, rejected: entry.site)
                    }
                    seen[entry.key] = entry
                }
                guard !staging else { return }
                for entry in entries { try state.insert(entry, into: id) }
            }
        }
        // While the modules of an install register, staged, as `add(site:_:)` stages one.
        if let recorder, registering?.isStaging == true {
            try addAll(staging: true)
            if recorder.stage(entries) { return }
        }
        try addAll(staging: false)
        for entry in entries { recorder?.added(entry) }
    }

    // MARK: - Reading instances

    /// The instance of this hive's own registration of `service` under `name`, not its ancestors'; `nil` when it has
    /// none, or that registration is not an instance.
    package func ownInstance<Service>(of service: Service.Type, name: String?) -> Service? {
        let entry = family.withLock { state in
            state.withRegistry(id) { $0[RegistrationKey(Service.self, name: name)]?.entry } ?? nil
        }
        return (entry?.instance as? Box<Service>)?.value
    }

    /// The instances of every registration of `service` this hive can resolve, with where each was made: its own,
    /// then its ancestors' that it does not shadow. Registrations of `service` that are not instances are left out.
    package func visibleInstances<Service>(of service: Service.Type) -> [(
        name: String?, value: Service, site: RegistrationSite
    )] {
        let wanted = ObjectIdentifier(Service.self)
        return visibleRecords.compactMap { record in
            guard record.entry.key.service == wanted, let box = record.entry.instance as? Box<Service> else {
                return nil
            }
            return (record.entry.key.name, box.value, record.entry.site)
        }
    }
}

extension ServiceHive.Overrides {
    // MARK: - Replacing registrations in overrides

    /// Registers with `register` into the overrides' own hive, in place of what this builder registered before under
    /// each of `registrations`, a service type and a name; traps when `register` throws, which only a programmer error
    /// makes it do, with a message that names the registration by `file` and `line`.
    ///
    /// For a library's own `register` forms of the builder, which replace what they register as the builder's other
    /// forms do.
    package mutating func register(
        replacing registrations: [(service: Any.Type, name: String?)],
        file: String,
        line: UInt,
        _ register: (ServiceHive) throws -> Void
    ) {
        let keys = registrations.map { registration in
            let service = registration.service  // A local, so that the compiler opens it for the generic init.
            return RegistrationKey(service, name: registration.name)
        }
        replace(keys, file: file, line: line, register)
    }

    /// The names of the registrations of `service` this builder has made so far, in no particular order: `nil` for
    /// one without a name.
    package func registeredNames(of service: Any.Type) -> [String?] {
        let wanted = ObjectIdentifier(service)
        let keys = hive.family.withLock { state in
            state.withRegistry(hive.id) { registry in registry.records.map(\.entry.key) } ?? []
        }
        return keys.filter { $0.service == wanted && $0.arguments == nil }.map(\.name)
    }
}
