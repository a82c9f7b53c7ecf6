extension ServiceHive {
    /// Checks, once every module of an install has registered and before anything it registered is added to the hive
    /// (the install stages it until then), that each dependency its
    /// registrations declare is met: by a registration of the module itself, by a service in its
    /// ``ServiceModule/needs``, or by a registration the hive or an ancestor had before the install. A module that
    /// uses another module's service without listing it in its `needs` is refused, even when that module is in the
    /// install: its `needs` are what orders it after that module.
    ///
    /// An optional or collection parameter is always met: a collection is open to any module's contributions.
    func checkDeclaredDependencies(
        of modules: [InstalledModule], _ recorder: InstallRecorder
    ) throws(ServiceHiveError) {
        let added = recorder.changes.staged
        // Most modules' registrations declare nothing: then there is nothing to check, and no set of the hive's keys
        // to build (`Benchmarks/count-instructions 26b`: 18,228 instructions a registration with the sets, 16,237
        // before the check).
        guard added.contains(where: { !($0.declared ?? []).isEmpty }) else { return }
        let ownEntries = Set(added.map(ObjectIdentifier.init))
        // The keys the hive resolved before the install: what is registered now, less anything this install added.
        let before: Set<RegistrationKey> = family.withLock { state in
            var keys: Set<RegistrationKey> = []
            for id in lineage {
                for record in state.hives[id.index].registry.records
                where !ownEntries.contains(ObjectIdentifier(record.entry)) {
                    keys.insert(record.entry.key)
                }
            }
            return keys
        }
        for module in modules {
            let own = added.filter { $0.site.module == module.name }
            let ownKeys = Set(own.map(\.key))
            for entry in own {
                for dependency in entry.declared ?? []
                where dependency.kind != .optional && dependency.kind != .collection {
                    let key = dependency.key
                    let met =
                        ownKeys.contains(key) || before.contains(key)
                        || module.needs.contains { $0.matches(key) }
                    if !met {
                        throw .moduleDependencyUnmet(
                            module: module.name, registration: entry.serviceKey, parameter: dependency.parameter,
                            needs: dependency.service)
                    }
                }
            }
        }
    }
}
