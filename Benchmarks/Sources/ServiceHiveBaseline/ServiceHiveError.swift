/// The errors ServiceHive throws. Each one names the service and says how to fix the problem.
///
/// A `ServiceHiveError` thrown while a factory resolves its own dependencies passes through that factory
/// unwrapped, so the error you catch names the service that is really missing, with the ``ServiceHive/ServiceKey``
/// chain that led to it:
///
/// ```swift
/// do {
///     _ = try hive.resolve(Checkout.self)
/// } catch let error as ServiceHiveError {
///     print(error)
///     // TradeService is not registered (needed by Checkout → Cart). To fix, register it before
///     // resolving: try hive.register(TradeService.self) { … }
/// }
/// ```
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

    /// A module failed while ``ServiceHive/install(_:)-([ServiceModule])`` registered or started it. The install was undone: its
    /// registrations were rolled back, and the modules it had started were stopped in reverse order.
    case moduleFailed(module: String, stage: ModuleStage, underlying: any Error)

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
            return "\(key) is not registered\(Self.neededBy(chain)). To fix, register it before resolving: "
                + "try hive.register(\(Self.call(key))) { … }"

        case let .alreadyRegistered(key, existing, rejected):
            return "\(key) is already registered at \(existing); the registration at \(rejected) was rejected. "
                + "To fix, give one of them a name:, unregister the first, or swap it in tests with withOverrides."

        case let .circularDependency(chain):
            return "Circular dependency: \(chain.chainDescription). To fix, break the cycle: let one side keep "
                + "its ServiceHive.Resolver and resolve the other lazily, after construction."

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

        case let .resolutionTooDeep(key, chain, limit):
            return "Resolving \(key) nested more than \(limit) factories (\(chain.chainDescription)). To fix, "
                + "look for a chain of factories that never ends; the limit is ServiceHive.maximumResolutionDepth."
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

    private static func call(_ key: ServiceHive.ServiceKey) -> String {
        guard let name = key.name else { return "\(key.service).self" }
        return "\(key.service).self, name: \"\(name)\""
    }

    private static func argumentList(_ types: [String]) -> String {
        types.isEmpty ? "no arguments" : "arguments (\(types.joined(separator: ", ")))"
    }
}
