import ServiceHive
import ServiceLifecycle

/// A swift-service-lifecycle `Service` that installs ServiceHive modules when its `ServiceGroup` runs it, and stops
/// them at graceful shutdown.
///
/// ```swift
/// let hive = ServiceHive()
/// let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive)
/// let group = ServiceGroup(
///     services: [modules, server],  // modules first, so that they stop last
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ``run()`` installs the modules with `ServiceHive.install(_:)`, which registers every module's services, all or
/// nothing, then starts the modules in priority order. It then waits for the group's graceful shutdown, stops the
/// modules with `ServiceHive.shutdown()`, in reverse priority order, and returns.
///
/// **When the install fails**, ``run()`` throws what `install(_:)` threw, unchanged: a
/// `ServiceHiveError.moduleFailed(module:stage:underlying:)` naming the module. The install has undone itself by
/// then: the modules it started were stopped in reverse order and its registrations were rolled back, so the hive
/// is as it was before. With the default `failureTerminationBehavior`, `.cancelGroup`, the group then cancels its
/// other services and its own `run()` throws that error.
///
/// **Graceful shutdown** (a signal in `gracefulShutdownSignals`, `ServiceGroup.triggerGracefulShutdown()`, or a
/// service whose termination behavior is `.gracefullyShutdownGroup` ending) stops the modules, and ``run()`` returns.
/// If graceful shutdown comes while the modules are starting, the install finishes first; the modules are then
/// stopped at once.
///
/// **Cancellation** (the group cancelling its services because another one failed, a cancellation signal, or the task
/// that runs the group being cancelled) stops the modules too, then ``run()`` throws `CancellationError`. The modules'
/// `stop(in:)` then runs in a cancelled task, so an `await` in it that honours cancellation ends early: cancellation
/// asks for a quick exit. A task cancelled before ``run()`` leaves the hive untouched. The install itself is not
/// shielded from cancellation: a module whose `start(in:)` gives up when cancelled makes the install fail and roll
/// back, and ``run()`` throws that `moduleFailed` error; an install that completes anyway is stopped at once, and
/// ``run()`` throws `CancellationError`.
///
/// **A service runs once.** Calling ``run()`` again, while it runs or after it returned, throws
/// ``ModulesServiceError/alreadyRun`` and leaves the hive alone. To run modules again, make a new service, and a new
/// hive: `shutdown()` keeps the modules' registrations, so installing the same modules into the same hive again fails
/// with `alreadyRegistered`.
///
/// **Where it sits in the group.** A `ServiceGroup` starts all its services at once, without waiting for this
/// install, and shuts them down one after another in reverse order. List this service before the services that use
/// the modules' services, so that the modules stop after them, and let those services resolve what they need when
/// they handle work rather than as they start.
///
/// **The whole hive stops.** `ServiceHive.shutdown()` stops every module installed in the hive, including modules
/// installed there in other ways or by another `ModulesService`. Give the service a hive whose modules it alone
/// installs.
///
/// Outside a `ServiceGroup` there is no graceful shutdown: ``run()`` then runs until its task is cancelled.
public actor ModulesService: Service, CustomStringConvertible {
    /// The hive the modules are installed in.
    private nonisolated let hive: ServiceHive

    /// The modules to install, in the order given.
    private nonisolated let modules: [any ServiceModule]

    /// Whether ``run()`` was called already.
    private var hasRun = false

    /// Creates a service that installs `modules` in `hive` when it runs.
    ///
    /// Nothing happens until ``run()``: the modules are neither registered nor started here.
    ///
    /// ```swift
    /// let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive)
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The modules to install, in any order: they register and start in priority order, highest first,
    ///     and stop in reverse.
    ///   - hive: The hive to install them in. By default, `ServiceHive.shared`.
    public init(_ modules: [any ServiceModule], in hive: ServiceHive = .shared) {
        self.modules = modules
        self.hive = hive
    }

    /// Installs the modules, runs until graceful shutdown or cancellation, then stops them.
    ///
    /// A `ServiceGroup` calls this; you rarely do. The modules register and start in priority order, highest first.
    /// On graceful shutdown every module installed in the hive stops, in reverse priority order, and this returns.
    /// On cancellation they stop too, and this throws `CancellationError`.
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [ModulesService([TradeModule()], in: hive)], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// - Throws: `ServiceHiveError.moduleFailed(module:stage:underlying:)` when a module fails to register or to
    ///   start; the install was undone, so the hive is as it was. `CancellationError` when the task was cancelled,
    ///   after the modules were stopped, or before anything was installed. ``ModulesServiceError/alreadyRun`` when
    ///   this service has run before.
    public func run() async throws {
        guard !hasRun else { throw ModulesServiceError.alreadyRun }
        hasRun = true
        try Task.checkCancellation()

        try await hive.install(modules)

        // `gracefulShutdown()` returns on graceful shutdown, at once if it was triggered already, and throws
        // `CancellationError` when the task is cancelled, at once if it was cancelled already.
        let cancelled: Bool
        do {
            try await gracefulShutdown()
            cancelled = false
        } catch {
            cancelled = true
        }
        await hive.shutdown()
        if cancelled { throw CancellationError() }
    }

    /// The service's name in the group's logs and errors: `ModulesService(TradeModule, AnalyticsModule)`, with the
    /// modules' names in the order given.
    public nonisolated var description: String {
        "ModulesService(\(modules.map(\.name).joined(separator: ", ")))"
    }
}
