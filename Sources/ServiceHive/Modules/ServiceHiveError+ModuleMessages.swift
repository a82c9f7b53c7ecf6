extension ServiceHiveError {
    /// The message of an error in modules' needs and provisions. The `description` of those errors comes here.
    var declarationMessage: String {
        switch self {
        case let .unmetNeed(module, service, providers):
            let provided = providers.sorted { $0.key < $1.key }.map { module, services in
                "\(module) provides \(services.map(\.description).joined(separator: ", "))"
            }
            let listing =
                provided.isEmpty
                ? "No module lists a service in its `provides`."
                : provided.joined(separator: "; ") + "."
            return "Module \(module) needs \(service), which no module of this install provides and the hive has not "
                + "registered. \(listing) Nothing was registered. To fix, install \(module) with the module that "
                + "registers \(service) and lists it in its `provides`, or register \(service) before installing: "
                + "try hive.register(\(Self.call(service))) { … }"

        case let .moduleCycle(modules, services):
            let links = zip(zip(modules, modules.dropFirst()), services).map { pair, service in
                "\(pair.0) needs \(service), which \(pair.1) provides"
            }
            return "Modules need each other in a cycle: \(modules.joined(separator: " → ")). "
                + "\(links.joined(separator: "; ")). No module of the cycle can go first, so nothing was registered. "
                + "To fix, move the services they need from each other into a module of their own that they need; "
                + "or, where a module uses another's service only once the app runs, not while it registers or starts, "
                + "take that service out of its `needs`."

        case let .provisionMissing(module, service, registered):
            let made = registered.isEmpty ? "nothing" : registered.map(\.description).joined(separator: ", ")
            return "Module \(module) lists \(service) in its `provides`, but did not register it in register(in:); "
                + "it registered \(made). Every registration of this install was rolled back. To fix, register "
                + "\(service) in the module's register(in:), or take it out of its `provides`."

        case let .conflictingDeclaration(module, service):
            return "Module \(module) lists \(service) in both its `needs` and its `provides`. Nothing was registered. "
                + "To fix, keep it in `provides` if the module registers it, or in `needs` if another module or the "
                + "hive provides it."

        case let .duplicateProvision(service, modules):
            return "Modules \(Self.sentenceList(modules)) \(modules.count == 2 ? "both" : "all") list \(service) in "
                + "their `provides`, and a service has one provider. Nothing was registered. To fix, keep it in the "
                + "`provides` of the one module that registers it; to offer several, register them under names and "
                + "provide .service(\(service.service).self, name: …) from each."

        default:
            preconditionFailure("declarationMessage is the message of the declaration errors only")
        }
    }

    /// "; module Orders needs it (declared in its `needs`), …" for a key that installed modules declare they need,
    /// or nothing.
    static func neededByModules(_ key: ServiceHive.ServiceKey) -> String {
        let modules = key.notes.neededByModules
        guard !modules.isEmpty else { return "" }
        let who = modules.count == 1 ? "module \(modules[0]) needs" : "modules \(sentenceList(modules)) need"
        let its = modules.count == 1 ? "its" : "their"
        let when = modules.count == 1 ? modules[0] : "they"
        return "; \(who) it (declared in \(its) `needs`), so it was registered when \(when) "
            + "\(modules.count == 1 ? "was" : "were") installed and has been unregistered since"
    }

    /// `A`, `A and B`, or `A, B and C`.
    static func sentenceList(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
