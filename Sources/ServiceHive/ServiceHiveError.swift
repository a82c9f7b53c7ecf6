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

    /// A registration with the same service, name and argument types already exists in this hive; or, for a
    /// contribution, whose key has a ``ServiceHive/ServiceKey/contributionSite``, a contribution of this hive to the
    /// same collection has the same name.
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
    /// ``ServiceHive/Resolving/resolveAsync(_:name:)``, which can wait for its factory.
    case requiresAsync(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    /// A registration was refused because of what it asked for: `reason` says what, and `fix` how to register it.
    case registrationRefused(ServiceHive.ServiceKey, reason: String, fix: String)

    /// A resolve that returns the service typed as `Sendable`, such as one of `any P & Sendable`, found a
    /// registration made where the service was not known to be `Sendable`, such as one of `any P`. `Sendable` leaves
    /// no trace at run time, so the two share a registration, and the hive refuses to hand out instances that may not
    /// be `Sendable` as `Sendable` ones.
    case notSendable(ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey])

    // MARK: - Modules' needs and provisions

    /// A module of an install needs a service that no module of the install provides, and that the hive and its
    /// ancestors have no registration for. Nothing was registered: the install checks every need before any module
    /// registers.
    ///
    /// `providers` lists, by module name, what the modules of the install and the modules installed in the hive and
    /// its ancestors declare in their ``ServiceModule/provides``.
    case unmetNeed(module: String, service: ServiceHive.ServiceKey, providers: [String: [ServiceHive.ServiceKey]])

    /// The needs of an install's modules form a cycle, so that no module of it can go first. Nothing was registered.
    ///
    /// `modules` starts and ends with the same module; `services[i]` is what `modules[i]` needs and `modules[i + 1]`
    /// provides.
    case moduleCycle(modules: [String], services: [ServiceHive.ServiceKey])

    /// A module declares a service in its ``ServiceModule/provides`` but did not register it in
    /// ``ServiceModule/register(in:)``. The install was rolled back, as for
    /// ``moduleFailed(module:stage:underlying:)``.
    ///
    /// `registered` lists what the module did register.
    case provisionMissing(module: String, service: ServiceHive.ServiceKey, registered: [ServiceHive.ServiceKey])

    /// A module declares the same service in its ``ServiceModule/needs`` and in its ``ServiceModule/provides``.
    /// Nothing was registered.
    case conflictingDeclaration(module: String, service: ServiceHive.ServiceKey)

    /// Two modules of one install declare the same service in their ``ServiceModule/provides``. Nothing was
    /// registered.
    case duplicateProvision(ServiceHive.ServiceKey, modules: [String])

    // MARK: - Declared dependencies

    /// A registration declares a dependency, by a parameter of its initializer or in its `dependsOn:`, that nothing
    /// the hive can resolve registers. Found by ``ServiceHive/check()`` without building anything.
    ///
    /// `suggestions` lists the registrations the hive has that the dependency may have meant: the same service under
    /// another name or with runtime arguments, or a service with a similar type name.
    case unmetDependency(
        ServiceHive.ServiceKey, parameter: String, needs: ServiceHive.ServiceKey, site: ServiceHive.RegistrationSite,
        suggestions: [ServiceHive.ServiceKey])

    /// Declared dependencies form a cycle: building the first service needs the last, which needs the first. Found by
    /// ``ServiceHive/check()`` without building anything.
    ///
    /// `path` starts and ends with the same service; `parameters[i]` is the parameter of `path[i]` that needs
    /// `path[i + 1]`, and `sites[i]` is where `path[i]` was registered.
    case dependencyCycle(
        path: [ServiceHive.ServiceKey], parameters: [String], sites: [ServiceHive.RegistrationSite])

    /// A shared instance depends on something that lives shorter than it does, and would keep it past its time: a
    /// singleton that holds a named-scope or `.weak` service, or one that only child hives provide. Found by
    /// ``ServiceHive/check()`` without building anything.
    ///
    /// `path` leads from the shared service to the captive one, through the transient services between them;
    /// `parameter` is the parameter of the shared service that starts it; `lifetime` says how long the captive one
    /// lives: `weak`, a named scope's name, or `child hives only`.
    case captiveDependency(
        ServiceHive.ServiceKey, scope: ServiceHive.Scope, parameter: String, path: [ServiceHive.ServiceKey],
        lifetime: String, site: ServiceHive.RegistrationSite)

    /// A module registers a service whose declared dependency nothing meets: neither the module's own registrations,
    /// nor what it lists in its ``ServiceModule/needs``, nor what the hive had before the install.
    /// Found once the install's modules have run their ``ServiceModule/register(in:)``, before anything they registered
    /// is added to the hive: the install registered nothing, and no module started.
    case moduleDependencyUnmet(
        module: String, registration: ServiceHive.ServiceKey, parameter: String, needs: ServiceHive.ServiceKey)

    /// Where in an install a module failed.
    public enum ModuleStage: Sendable, Hashable {
        /// In ``ServiceModule/register(in:)``.
        case registration
        /// In ``ServiceModule/start(in:)``.
        case start
    }
}

/// What a post-construction hook threw, as the `underlying` error of
/// ``ServiceHiveError/factoryFailed(_:chain:underlying:)``.
struct CompletedHookFailure: Error, CustomStringConvertible {
    let underlying: any Error

    var description: String { "the post-construction hook threw: \(underlying)" }
}
