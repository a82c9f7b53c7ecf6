extension ServiceHiveError {
    /// The message of an error that ``ServiceHive/check()`` or an install found in declared dependencies. The
    /// `description` of those errors comes here.
    var checkMessage: String {
        switch self {
        case let .unmetDependency(key, parameter, needs, site, suggestions):
            let at = "\(key.withoutSite), registered at \(site.fileID):\(site.line)"
            if needs.collectionOf != nil {
                return "\(at), takes \(needs) by its \(parameter), but that parameter is the collection of the "
                    + "contributions to \(needs.collectionOf ?? ""), and \(needs) itself is registered as a service. "
                    + "To fix, contribute its elements with try hive.contribute(\(needs.collectionOf ?? "").self) { … }, "
                    + "or register \(key.withoutSite) with a closure that resolves the registered \(needs)."
            }
            let meant =
                suggestions.isEmpty
                ? ""
                : " Did you mean \(Self.sentenceList(suggestions.map(\.description)).replacing(" and ", with: " or "))?"
            return "\(at), needs \(needs) by its \(parameter), which nothing registers.\(meant) To fix, register it: "
                + "try hive.register(\(Self.call(needs))) { … }, or take it as \(needs.service)? if it may be missing."

        case let .dependencyCycle(path, parameters, sites):
            let drawn = zip(path, parameters).map { "\($0) —\($1)→ " }.joined() + (path.last?.description ?? "")
            let where_ = zip(path.dropLast(), sites).map { "\($0) at \($1.fileID):\($1.line)" }
            return "Declared dependencies form a cycle: \(drawn). Building any of them needs itself first "
                + "(\(where_.joined(separator: "; "))). To fix, take one link as ServiceHive.Lazy<…> or "
                + "ServiceHive.Provider<…>, which resolves it later, or move what both need into a service of its own."

        case let .captiveDependency(key, scope, parameter, path, lifetime, site):
            let captive = path.last?.description ?? ""
            let through =
                path.count > 2
                ? " through \(path.dropFirst().dropLast().map(\.description).joined(separator: " → "))" : ""
            let lives =
                lifetime == "child hives only" ? "only child hives provide it" : "it lives in the scope \(lifetime)"
            return "\(key.withoutSite), a \(scope) registered at \(site.fileID):\(site.line), would hold \(captive) "
                + "by its \(parameter)\(through), but \(lives), shorter than the \(scope). The \(scope) would keep "
                + "one past its time. To fix, take it as ServiceHive.Provider<\(path.last?.service ?? "")>, which "
                + "resolves it on every use, or give \(key.withoutSite) a scope no longer than \(lifetime == "child hives only" ? "transient" : lifetime)."

        case let .moduleDependencyUnmet(module, registration, parameter, needs):
            return "Module \(module) registers \(registration), which needs \(needs) by its \(parameter), but "
                + "\(module) does not register it, does not list it in its `needs`, and the hive had not registered "
                + "it before the install. The install registered nothing, and no module started. To fix, add "
                + ".service(\(needs.service).self) to \(module)'s `needs` and install it with the module that "
                + "provides it, or register \(needs) before installing."

        default:
            preconditionFailure("checkMessage is the message of the check's errors only")
        }
    }
}
