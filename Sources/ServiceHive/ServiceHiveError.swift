/// The errors ServiceHive throws. Each one names the service and says how to fix the problem.
///
/// Every throwing ServiceHive API is declared `throws`, and everything it throws is a `ServiceHiveError`. Catch it
/// as you would any error:
///
/// ```swift
/// do {
///     _ = try hive.resolve(Checkout.self)
/// } catch let error as ServiceHiveError {
///     print(error)
/// }
/// ```
///
/// A `ServiceHiveError` thrown while a factory resolves its own dependencies passes through that factory
/// unwrapped, so the error you catch names the service that is really missing, with the ``ServiceHive/ServiceKey``
/// chain that led to it:
///
/// ```swift
/// catch ServiceHiveError.notRegistered(let key, let chain) {
///     print(key, chain)  // TradeService [Checkout, Cart]
/// }
/// ```
///
/// New cases may be added in later versions, so a `switch` over the cases needs a `default`.
public indirect enum ServiceHiveError: Error, CustomStringConvertible, Sendable {
    /// No registration matches the service and name, in the hive, its parents or an active override scope.
    ///
    /// `chain` lists the services whose factories were running, outermost first; it is empty for a direct
    /// resolve.
    case notRegistered(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    /// A registration with the same service, name and argument types already exists in this hive.
    ///
    /// The first registration stays; `rejected` is where the second was attempted.
    case alreadyRegistered(
        ServiceHive.ServiceKey,
        existing: ServiceHive.RegistrationSite,
        rejected: ServiceHive.RegistrationSite
    )

    /// Building a service needed the same service again. The chain starts and ends with it.
    case circularDependency([ServiceHive.ServiceKey])

    /// A factory threw an error that is not a ``ServiceHiveError``. Nothing was cached.
    ///
    /// `chain` lists the services whose factories were running when this one failed, outermost first.
    case factoryFailed(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey], underlying: any Error)

    /// The service and name are registered, but not for the argument types passed.
    ///
    /// The key carries the argument types that were passed; `registered` lists the argument types of each
    /// registration that exists for the service and name.
    case argumentMismatch(ServiceHive.ServiceKey, registered: [[String]], chain: [ServiceHive.ServiceKey])

    /// A ``ServiceHive/Scope/weak`` registration's factory returned something that is not a class instance.
    case weakRequiresClass(ServiceHive.ServiceKey, instanceType: String)

    /// Resolving went deeper than ``ServiceHive/maximumResolutionDepth`` nested factories.
    case resolutionTooDeep(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey], limit: Int)

    /// A nested resolve would have left less than 128 KiB of the thread's stack, so it was refused instead of
    /// crashing the process. `chain` lists the factories that were running.
    case stackExhausted(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    /// A module failed while ``ServiceHive/install(_:)`` registered or started it. The install was undone: its
    /// registrations were rolled back, what it unregistered was restored, the modules it had started were stopped in
    /// reverse order, and every instance built from a rolled-back registration was dropped.
    case moduleFailed(module: String, stage: ModuleStage, underlying: any Error)

    /// A ``ServiceHive/Resolver`` was used after its hive was released: typically a `deinit` that resolves through
    /// a kept resolver while its hive goes away.
    case hiveReleased(ServiceHive.ServiceKey)

    /// A resolve through a hive with strict overrides found no override for the service. Inside
    /// `withOverrides(strict: true)` every service must be overridden, so a test cannot reach a real one by accident.
    case notOverridden(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    /// A synchronous resolve found a registration whose factory is `async`. Such a service is built only by
    /// ``ServiceHive/resolveAsync(_:name:)``, which can wait for its factory.
    case requiresAsync(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    /// A registration was refused because of what it asked for: `reason` says what, and `fix` how to register it.
    case registrationRefused(ServiceHive.ServiceKey, reason: String, fix: String)

    /// A resolve that returns the service typed as `Sendable`, such as one of `any P & Sendable`, found a
    /// registration made where the service was not known to be `Sendable`, such as one of `any P`. `Sendable` leaves
    /// no trace at run time, so the two share a registration, and the hive refuses to hand out instances that may not
    /// be `Sendable` as `Sendable` ones.
    case notSendable(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    // MARK: - Components called by name (codes in ServiceHiveError+Components.swift)

    /// No component is registered under the name, and no fallback answered. Code 100.
    ///
    /// `available` lists the components the hive can call, sorted.
    case componentNotFound(String, available: [String])

    /// The component has no command of the name, and no fallback answered. Code 200.
    ///
    /// `available` lists the component's commands, sorted.
    case commandNotFound(component: String, command: String, available: [String])

    /// A synchronous call reached a command that is `async`. Code 201.
    case commandIsAsync(component: String, command: String)

    /// A command read an argument that the call does not pass. Code 300.
    ///
    /// `argument` is the argument's name, or its path for a nested value, such as `address.city`; `passed` lists
    /// the names the call does pass at that level.
    case missingArgument(component: String, command: String, argument: String, passed: [String])

    /// A command read an argument as a type that the value passed does not convert to without loss. Code 301.
    ///
    /// `found` describes the value passed and its type, such as `"two" (String)`.
    case argumentTypeMismatch(component: String, command: String, argument: String, expected: String, found: String)

    /// A caller read a value that a command's reply does not have. Code 302.
    case missingReplyValue(component: String, command: String, value: String, present: [String])

    /// A caller read a value of a command's reply as a type that it does not convert to without loss. Code 303.
    case replyValueTypeMismatch(component: String, command: String, value: String, expected: String, found: String)

    /// A typed value could not be converted to or from a command's arguments or reply: it is not a keyed value such
    /// as a struct, or its own `Codable` code threw. Code 304.
    case conversionFailed(component: String, command: String, type: String, underlying: any Error)

    /// A URL named a command that is not marked reachable by URL. Code 400.
    ///
    /// `reachable` lists the component's commands that are, sorted.
    case notReachableByURL(component: String, command: String, reachable: [String])

    /// A URL was refused before any lookup: it is malformed, too long, or hostile. Code 401.
    ///
    /// `url` is the URL as opened, shortened to 160 characters.
    case invalidURL(String, problem: URLProblem)

    /// A command threw an error of its own. Code 500.
    case commandFailed(component: String, command: String, underlying: any Error)

    /// A component or command name that ServiceHive does not accept was registered. Code 600.
    case invalidComponentName(String)

    /// Where in an install a module failed.
    public enum ModuleStage: Sendable, Hashable {
        /// In ``ServiceModule/register(in:)``.
        case registration
        /// In ``ServiceModule/start(in:)``.
        case start
    }

    /// The message, in one line: what went wrong, for which service, and how to fix it.
    public var description: String {
        switch self {
        case let .notRegistered(key, chain):
            let registration = "try hive.register(\(Self.call(key))) { … }"
            guard !key.notes.providedByChildren else {
                return "\(key) is not registered\(Self.neededBy(chain))\(Self.registeredNames(key)); child hives "
                    + "provide it, for example per request. To fix, resolve from the child hive that provides it, "
                    + "made with hive.child { $0.provide(\(key.service).self, …) }, or register it here: \(registration)"
            }
            return "\(key) is not registered\(Self.neededBy(chain))\(Self.registeredNames(key)). To fix, register it "
                + "before resolving: \(registration)"

        case let .alreadyRegistered(key, existing, rejected):
            return "\(key) is already registered at \(existing); the registration at \(rejected) was rejected. "
                + "To fix, give one of them a name:, unregister the first, or swap it in tests with withOverrides."

        case let .circularDependency(chain):
            return "Circular dependency: \(chain.chainDescription). To fix, break the cycle: let one side keep "
                + "its ServiceHive.Resolver and resolve the other lazily, after construction."

        case let .factoryFailed(key, chain, underlying as CompletedHookFailure):
            return
                "The post-construction hook of \(key)\(Self.neededBy(chain)) threw: \(Self.clause(underlying.underlying)). "
                + "To fix, make the hook succeed; nothing was cached, so the next resolve runs the factory and the hook "
                + "again."

        case let .factoryFailed(key, chain, underlying):
            return "The factory for \(key)\(Self.neededBy(chain)) threw: \(Self.clause(underlying)). "
                + "To fix, make the factory succeed; nothing was cached, so the next resolve runs it again."

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

        case let .weakRequiresClass(key, instanceType):
            return "\(key) is registered .weak, but its factory returned \(instanceType), which is not a class "
                + "instance, so the hive cannot hold it weakly. To fix, return a class instance, or register "
                + "\(key.service) as .singleton or .transient."

        case let .stackExhausted(key, chain):
            return "Resolving \(key) at depth \(chain.count) would leave less than 128 KiB of this thread's stack "
                + "(\(chain.chainDescription)). To fix, shorten the chain of factories, or resolve it on a thread "
                + "with a larger stack."

        case let .moduleFailed(module, .registration, underlying):
            return "Module \(module) failed to register its services: \(Self.clause(underlying)). Every registration "
                + "of this install was rolled back."
                + Self.fix(unlessExplained: underlying, "correct the module's registrations and install again")

        case let .moduleFailed(module, .start, underlying):
            return "Module \(module) failed to start: \(Self.clause(underlying)). The modules started before it "
                + "were stopped in reverse order and every registration of this install was rolled back."
                + Self.fix(unlessExplained: underlying, "resolve the cause and install again")

        case let .hiveReleased(key):
            return
                "Resolving \(key) through a ServiceHive.Resolver whose hive has been released. To fix, keep the hive "
                + "alive while anything resolves through its resolvers, or resolve before the hive goes away."

        case let .requiresAsync(key, chain):
            return
                "\(key) has an async factory, so it cannot be resolved synchronously\(Self.neededBy(chain)). To fix, "
                + "resolve it with try await hive.resolveAsync(\(Self.call(key))), or from an async factory's resolver."

        case let .registrationRefused(key, reason, fix):
            return "\(key) cannot be registered: \(reason). To fix, \(fix)."

        case let .notSendable(key, chain):
            return "\(key) is resolved as a Sendable type\(Self.neededBy(chain)), but was registered where it was not "
                + "known to be Sendable, so its instances may not be. To fix, if they are Sendable, register it where "
                + "the compiler knows: as (any \(key.service) & Sendable).self, or from generic code constrained to "
                + "Sendable; if they are not, resolve it without & Sendable."

        case let .notOverridden(key, chain):
            return "\(key) is not overridden in this strict withOverrides\(Self.neededBy(chain)). To fix, override "
                + "it in the configure closure: try $0.register(\(Self.call(key))) { … }, or leave strict off."

        case let .resolutionTooDeep(key, chain, limit):
            return "Resolving \(key) nested more than \(limit) factories (\(chain.chainDescription)). To fix, "
                + "look for a chain of factories that never ends; the limit is ServiceHive.maximumResolutionDepth."

        case .componentNotFound, .commandNotFound, .commandIsAsync, .missingArgument, .argumentTypeMismatch,
            .missingReplyValue, .replyValueTypeMismatch, .conversionFailed, .notReachableByURL, .invalidURL,
            .commandFailed, .invalidComponentName:
            return componentMessage
        }
    }

    /// An error's description without its final period, to go inside a sentence.
    private static func clause(_ error: any Error) -> String {
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

    private static func call(_ key: ServiceHive.ServiceKey) -> String {
        guard let name = key.name else { return "\(key.service).self" }
        return "\(key.service).self, name: \"\(name)\""
    }

    private static func argumentList(_ types: [String]) -> String {
        types.isEmpty ? "no arguments" : "arguments (\(types.joined(separator: ", ")))"
    }
}

/// What a post-construction hook threw, as the `underlying` error of ``ServiceHiveError/factoryFailed(_:chain:underlying:)``.
struct CompletedHookFailure: Error, CustomStringConvertible {
    let underlying: any Error

    var description: String { "the post-construction hook threw: \(underlying)" }
}
