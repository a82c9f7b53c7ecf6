/// The modules of one install, their declarations checked against each other and against the hive, in the order they
/// register and start. Making it calls no module but to read its name, priority and declarations, and registers
/// nothing: an install whose declarations are wrong fails before any module registers.
struct InstallPlan {
    /// The modules, in the order they register and start.
    let modules: [InstalledModule]

    /// Reads every module's declarations once, checks them, and orders the modules.
    ///
    /// - Throws: ``ServiceHiveError/conflictingDeclaration(module:service:)``,
    ///   ``ServiceHiveError/duplicateProvision(_:modules:)``, ``ServiceHiveError/unmetNeed(module:service:providers:)``
    ///   or ``ServiceHiveError/moduleCycle(modules:services:)``, in that order of checking.
    init(_ given: [any ServiceModule], into hive: ServiceHive) throws(ServiceHiveError) {
        var modules = zip(given, InstalledModule.takeSequences(given.count)).map(InstalledModule.init)
        for module in modules {
            if let both = module.needs.first(where: module.provides.contains) {
                throw .conflictingDeclaration(module: module.name, service: both.key)
            }
        }
        var providers: [ServiceHive.ServiceReference: Int] = [:]
        for (index, module) in modules.enumerated() {
            for service in module.provides {
                if let other = providers.updateValue(index, forKey: service) {
                    throw .duplicateProvision(service.key, modules: [modules[other].name, module.name])
                }
            }
        }
        let hiveHas = hive.declarationState(checking: Set(modules.flatMap(\.needs).filter { providers[$0] == nil }))
        for index in modules.indices {
            for need in modules[index].needs {
                if let provider = providers[need] {
                    modules[index].after.append(modules[provider].sequence)
                } else if hiveHas.registered.contains(need) {
                    // Provided by a module installed before, it goes after that module as long as both are installed.
                    modules[index].after += hiveHas.installedHere.filter { $0.provides.contains(need) }.map(\.sequence)
                } else {
                    throw .unmetNeed(
                        module: modules[index].name, service: need.key,
                        providers: Self.providers(of: modules + hiveHas.installedInLineage))
                }
            }
        }
        let (ordered, stuck) = InstalledModule.startupOrder(modules)
        guard stuck.isEmpty else { throw InstalledModule.cycleError(among: stuck) }
        self.modules = ordered
    }

    /// What each module that provides anything provides, by module name.
    private static func providers(of modules: [InstalledModule]) -> [String: [ServiceHive.ServiceKey]] {
        var providers: [String: [ServiceHive.ServiceKey]] = [:]
        for module in modules where !module.provides.isEmpty {
            providers[module.name, default: []] += module.provides.map(\.key)
        }
        return providers
    }
}

extension ServiceHive {
    /// What an install's plan needs to know of the hive, read under the family lock in one go.
    struct DeclarationState {
        /// Those of the needs asked about that a registration of this hive or an ancestor meets.
        var registered: Set<ServiceReference> = []
        /// The modules installed in this hive.
        var installedHere: [InstalledModule] = []
        /// The modules installed in this hive and its ancestors, nearest hive first.
        var installedInLineage: [InstalledModule] = []
    }

    /// Which of `needs` this hive or an ancestor has a registration for, whatever its runtime arguments, and the
    /// modules installed in them.
    func declarationState(checking needs: Set<ServiceReference>) -> DeclarationState {
        guard !needs.isEmpty else { return DeclarationState() }  // nothing to check, and nothing to explain or follow
        return family.withLock { state in
            var seen = DeclarationState()
            for id in lineage {
                let installed = state.modules[id] ?? []
                if id == self.id { seen.installedHere = installed }
                seen.installedInLineage += installed
                for need in needs where !seen.registered.contains(need) {
                    let records = state.hives[id.index].registry.records(of: need.service)
                    if records.contains(where: { need.matches($0.entry.key) }) { seen.registered.insert(need) }
                }
            }
            return seen
        }
    }
}
