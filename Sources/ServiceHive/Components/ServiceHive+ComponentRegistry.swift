// The one file of Components that uses the registry's internals: `Entry`, `HiveFamily` and `InstallRecorder`. Every
// other file of the folder goes through the hive's own API.

extension ServiceHive {
    /// A registration about to be added: where it is made, and how to make its entry once the module is known.
    struct PendingEntry {
        let site: RegistrationSite
        let make: (RegistrationSite) -> Entry

        /// A registration of an instance that already exists, as `register(_:name:instance:)` makes.
        static func instance<Service>(
            _ value: Service,
            as _: Service.Type,
            name: String?,
            site: RegistrationSite
        ) -> PendingEntry {
            PendingEntry(site: site) { site in
                Entry(Service.self, name: name, instance: value, site: site, sendable: .unknown)
            }
        }

        /// A registration of a factory, as `register(_:name:scope:factory:)` makes.
        static func factory<Service>(
            _: Service.Type,
            name: String?,
            scope: Scope,
            site: RegistrationSite,
            make: @escaping @Sendable (Resolver) throws -> Service
        ) -> PendingEntry {
            PendingEntry(site: site) { site in
                Entry(
                    Service.self, name: name, scope: scope, site: site, factory: Factory(resolving: make),
                    sendable: .unknown)
            }
        }
    }

    /// Adds every pending registration to this hive, or none: when one key is taken, in this hive or earlier in
    /// `pending`, nothing is added and the error names both places. Attributed to the module being installed, and
    /// rolled back with its install, as every registration is.
    func addAll(_ pending: [PendingEntry]) throws(ServiceHiveError) {
        let recorder = InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
        let module = recorder?.module
        let entries = pending.map { pending in
            var site = pending.site
            site.module = module
            return pending.make(site)
        }
        try family.withLock { (state) throws(ServiceHiveError) in
            var seen: [RegistrationKey: Entry] = [:]
            for entry in entries {
                if let existing = seen[entry.key] ?? state.hives[id.index].registry[entry.key]?.entry {
                    throw .alreadyRegistered(existing.serviceKey, existing: existing.site, rejected: entry.site)
                }
                seen[entry.key] = entry
            }
            for entry in entries { try state.insert(entry, into: id) }
        }
        for entry in entries { recorder?.added(entry) }
    }

    // MARK: - Reading registrations

    /// The instance of this hive's own registration of `service` under `name`, not its ancestors'; `nil` when it has
    /// none, or that registration is not an instance.
    func ownInstance<Service>(of service: Service.Type, name: String?) -> Service? {
        let entry = family.withLock { state in
            state.withRegistry(id) { $0[RegistrationKey(Service.self, name: name)]?.entry } ?? nil
        }
        return (entry?.instance as? Box<Service>)?.value
    }

    /// The instances of every registration of `service` this hive can resolve, with where each was made: its own,
    /// then its ancestors' that it does not shadow.
    func visibleInstances<Service>(of service: Service.Type) -> [(
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
