extension ServiceHiveError {
    /// The message, in one line: what went wrong, for which service, and how to fix it.
    public var description: String {
        switch self {
        case .notRegistered, .argumentMismatch, .hiveReleased, .requiresAsync, .notSendable, .notOverridden:
            return lookupMessage
        case .circularDependency, .factoryFailed, .stackExhausted, .resolutionTooDeep:
            return buildMessage
        case .alreadyRegistered, .weakRequiresClass, .moduleFailed, .registrationRefused:
            return setupMessage
        case .unmetNeed, .moduleCycle, .provisionMissing, .conflictingDeclaration, .duplicateProvision:
            return declarationMessage
        case .unmetDependency, .dependencyCycle, .captiveDependency, .moduleDependencyUnmet:
            return checkMessage
        }
    }

    /// The message of an error of a resolve that found no registration it could use.
    private var lookupMessage: String {
        switch self {
        case let .notRegistered(key, chain):
            let registration = "try hive.register(\(Self.call(key))) { … }"
            let modules = Self.neededByModules(key)
            guard !key.notes.providedByChildren else {
                return
                    "\(key) is not registered\(Self.neededBy(chain))\(modules)\(Self.registeredNames(key)); child hives "
                    + "provide it, for example per request. To fix, resolve from the child hive that provides it, "
                    + "made with hive.child { $0.provide(\(key.service).self, …) }, or register it here: "
                    + registration
            }
            return "\(key) is not registered\(Self.neededBy(chain))\(modules)\(Self.registeredNames(key)). To fix, "
                + "register it \(modules.isEmpty ? "before resolving" : "again"): \(registration)"

        case let .argumentMismatch(key, registered, chain):
            var plain = key
            plain.argumentTypes = []
            let takes = registered.map(Self.argumentList).joined(separator: " or ")
            let passed = Self.argumentList(key.argumentTypes)
            let fix =
                registered.contains([])
                ? "try hive.resolve(\(Self.call(plain)))"
                : "try hive.resolve(\(Self.call(plain)), arguments: …)"
            return "\(plain) takes \(takes), but was resolved with \(passed)\(Self.neededBy(chain)). "
                + "To fix, pass exactly the registered argument types: \(fix)"

        case let .hiveReleased(key):
            return
                "Resolving \(key) through a ServiceHive.Resolver whose hive has been released. To fix, keep the hive "
                + "alive while anything resolves through its resolvers, or resolve before the hive goes away."

        case let .requiresAsync(key, chain) where key.contributionSite != nil:
            return
                "\(key) has an async factory, so it cannot be resolved synchronously\(Self.neededBy(chain)). To fix, "
                + "resolve its collection with try await hive.resolveAllAsync(\(key.service).self), or from an async "
                + "factory's resolver."

        case let .requiresAsync(key, chain):
            return
                "\(key) has an async factory, so it cannot be resolved synchronously\(Self.neededBy(chain)). To fix, "
                + "resolve it with try await hive.resolveAsync(\(Self.call(key))), or from an async factory's resolver."

        case let .notSendable(key, chain):
            let registered = key.contributionSite == nil ? "registered" : "contributed"
            let register = key.contributionSite == nil ? "register" : "contribute"
            return "\(key) is resolved as a Sendable type\(Self.neededBy(chain)), but was \(registered) where it was "
                + "not known to be Sendable, so its instances may not be. To fix, if they are Sendable, \(register) it where "
                + "the compiler knows: as (any \(key.service) & Sendable).self, or from generic code constrained to "
                + "Sendable; if they are not, resolve it without & Sendable."

        case let .notOverridden(key, chain) where key.collectionOf != nil:
            let element = key.collectionOf ?? key.service
            return
                "\(key) is not overridden in this strict withOverrides\(Self.neededBy(chain)). To fix, contribute to "
                + "it or replace it in the configure closure: $0.contribute(\(element).self) { … }, or "
                + "$0.replaceContributions(of: \(element).self) for none; or leave strict off."

        case let .notOverridden(key, chain):
            return "\(key) is not overridden in this strict withOverrides\(Self.neededBy(chain)). To fix, override "
                + "it in the configure closure: $0.register(\(Self.call(key))) { … }, or leave strict off."

        default:
            return unrouted
        }
    }

    /// The message of an error of a resolve that found its registration, then failed to build it.
    private var buildMessage: String {
        switch self {
        case let .circularDependency(chain):
            // A cycle's chain ends with the service it started from, so it names at least two services.
            let from = chain.first?.service ?? "", to = chain.dropFirst().first?.service ?? from
            return "Circular dependency: \(chain.chainDescription). To fix, break the cycle, for example where \(from) "
                + "resolves \(to): resolve ServiceHive.Lazy<\(to)> or ServiceHive.Provider<\(to)> instead, which "
                + "resolve \(to) only when it is used, or keep the ServiceHive.Resolver and resolve \(to) after "
                + "construction."

        case let .factoryFailed(key, chain, underlying as CompletedHookFailure):
            return
                "The post-construction hook of \(key)\(Self.neededBy(chain)) threw: "
                + "\(Self.clause(underlying.underlying)). To fix, make the hook succeed; nothing was cached, so the "
                + "next resolve runs the factory and the hook again."

        case let .factoryFailed(key, chain, underlying):
            return "The factory for \(key)\(Self.neededBy(chain)) threw: \(Self.clause(underlying)). "
                + "To fix, make the factory succeed; nothing was cached, so the next resolve runs it again."

        case let .stackExhausted(key, chain):
            return "Resolving \(key) at depth \(chain.count) would leave less than 128 KiB of this thread's stack "
                + "(\(chain.chainDescription)). To fix, shorten the chain of factories, or resolve it on a thread "
                + "with a larger stack."

        case let .resolutionTooDeep(key, chain, limit):
            return "Resolving \(key) nested more than \(limit) factories (\(chain.chainDescription)). To fix, "
                + "look for a chain of factories that never ends; the limit is ServiceHive.maximumResolutionDepth."

        default:
            return unrouted
        }
    }

    /// The message of an error of a registration or an install.
    private var setupMessage: String {
        switch self {
        case let .alreadyRegistered(key, existing, rejected) where key.contributionSite != nil:
            let name = key.name.map { "\"\($0)\"" } ?? "?"
            return "Two contributions to [\(key.service)] in one hive are named \(name): the one at \(existing) stays, "
                + "and the one at \(rejected) was rejected. To fix, give one of them another name, or remove the first "
                + "with hive.removeContribution(\(key.service).self, name: \(name))."

        case let .alreadyRegistered(key, existing, rejected):
            return "\(key) is already registered at \(existing); the registration at \(rejected) was rejected. "
                + "To fix, give one of them a name:, unregister the first, or swap it in tests with withOverrides."

        case let .weakRequiresClass(key, instanceType):
            let (register, registered) =
                key.contributionSite == nil ? ("register", "registered") : ("contribute", "contributed")
            return "\(key) is \(registered) .weak, but its factory returned \(instanceType), which is not a class "
                + "instance, so the hive cannot hold it weakly. To fix, return a class instance, or \(register) "
                + "\(key.service) as .singleton or .transient."

        case let .moduleFailed(module, .registration, underlying):
            return "Module \(module) failed to register its services: \(Self.clause(underlying)). Every registration "
                + "of this install was rolled back."
                + Self.fix(unlessExplained: underlying, "correct the module's registrations and install again")

        case let .moduleFailed(module, .start, underlying):
            return "Module \(module) failed to start: \(Self.clause(underlying)). The modules started before it "
                + "were stopped in reverse order and every registration of this install was rolled back."
                + Self.fix(unlessExplained: underlying, "resolve the cause and install again")

        case let .registrationRefused(key, reason, fix):
            return "\(key) cannot be registered: \(reason). To fix, \(fix)."
        default:
            return unrouted
        }
    }

    /// The message of a case that `description` sends to another group's message; never shown, as `description`
    /// routes every case to the group that words it.
    private var unrouted: String { "ServiceHiveError (code \(code))" }

    /// An error's description without its final period, to go inside a sentence.
    package static func clause(_ error: any Error) -> String {
        let text = "\(error)"
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// " To fix, …" unless `error` is a `ServiceHiveError`, whose message already says how to fix it.
    private static func fix(unlessExplained error: any Error, _ advice: String) -> String {
        error is ServiceHiveError ? "" : " To fix, \(advice)."
    }

    private static func neededBy(_ chain: [ServiceHive.ServiceKey]) -> String {
        chain.isEmpty ? "" : " (needed by \(chain.chainDescription))"
    }

    /// ". Registered names: member, standard", or nothing when the service has no other registration.
    private static func registeredNames(_ key: ServiceHive.ServiceKey) -> String {
        let names = key.notes.registeredNames
        guard !names.isEmpty else { return "" }
        let named = names.compactMap { $0 }.sorted().joined(separator: ", ")
        let unnamed = names.contains(nil)
        switch (named.isEmpty, unnamed) {
        case (true, _): return ". It is registered without a name"
        case (false, true): return ". Registered names: \(named), and the registration without a name"
        case (false, false): return ". Registered names: \(named)"
        }
    }

    static func call(_ key: ServiceHive.ServiceKey) -> String {
        guard let name = key.name else { return "\(key.service).self" }
        return "\(key.service).self, name: \"\(name)\""
    }

    private static func argumentList(_ types: [String]) -> String {
        types.isEmpty ? "no arguments" : "arguments (\(types.joined(separator: ", ")))"
    }
}
