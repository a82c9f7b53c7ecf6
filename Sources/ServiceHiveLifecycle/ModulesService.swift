#if ServiceLifecycle
public import ServiceHive
public import ServiceLifecycle

/// A swift-service-lifecycle `Service` that installs ServiceHive modules when its `ServiceGroup` runs it, says when
/// they are ready, and stops them at graceful shutdown.
///
/// ```swift
/// let hive = ServiceHive()
/// let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive, validation: .all)
/// let group = ServiceGroup(
///     services: [modules, server],  // modules first, so that they stop last
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ``run()`` installs the modules with `ServiceHive.install(_:)`, which registers every module's services, all or
/// nothing, then starts the modules in install order: each after the modules that provide what it needs, then by
/// priority. It then checks the dependencies that registrations declare, with `ServiceHive.check()`, which builds
/// nothing, and with a ``Validation`` other than ``Validation/none`` validates the hive with `validateAsync(_:)`.
/// Once that succeeded the service is ready: ``ready()`` returns. It then waits for the group's graceful shutdown,
/// stops the modules with `ServiceHive.shutdown()`, in reverse install order, and returns.
///
/// **Readiness.** A `ServiceGroup` starts all its services at once. A service that must not work before the modules
/// are installed, such as an HTTP server that must not listen yet, awaits ``ready()`` first: it returns once the
/// modules are installed and validated, and throws what made the start fail. With Hummingbird:
///
/// ```swift
/// var app = Application(router: router, services: [modules])
/// app.beforeServerStarts { try await modules.ready() }
/// ```
///
/// **When the install fails**, ``run()`` throws what `install(_:)` threw, unchanged: a
/// `ServiceHiveError.moduleFailed(module:stage:underlying:)` naming the module, and ``ready()`` throws it too. The
/// install has undone itself by then: the modules it started were stopped in reverse order and its registrations were
/// rolled back, so the hive is as it was before. With the default `failureTerminationBehavior`, `.cancelGroup`, the
/// group then cancels its other services and its own `run()` throws that error.
///
/// **When the validation fails**, the modules are stopped, in reverse install order, and ``run()`` and ``ready()``
/// throw ``ModulesServiceError/validationFailed(_:)`` with the report. Their registrations stay, as after
/// `shutdown()`. The group then ends as it does for a failed install.
///
/// **Graceful shutdown** (a signal in `gracefulShutdownSignals`, `ServiceGroup.triggerGracefulShutdown()`, or a
/// service whose termination behavior is `.gracefullyShutdownGroup` ending) stops the modules, and ``run()`` returns.
/// If graceful shutdown comes while the modules are starting, the install, and the validation, finish first; the
/// modules are then stopped at once.
///
/// **Cancellation** (the group cancelling its services because another one failed, a cancellation signal, or the task
/// that runs the group being cancelled) stops the modules too, then ``run()`` throws `CancellationError`. The modules'
/// `stop(in:)` then runs in a cancelled task, so an `await` in it that honours cancellation ends early: cancellation
/// asks for a quick exit. A task cancelled before ``run()`` leaves the hive untouched, and ``ready()`` throws
/// `CancellationError`. The install itself is not shielded from cancellation: a module whose `start(in:)` gives up
/// when cancelled makes the install fail and roll back, and ``run()`` throws that `moduleFailed` error; an install
/// that completes anyway is stopped at once, and ``run()`` throws `CancellationError`.
///
/// **A service runs once.** Calling ``run()`` again, while it runs or after it returned, throws
/// ``ModulesServiceError/alreadyRun`` and leaves the hive alone. To run modules again, make a new service, and a new
/// hive: `shutdown()` keeps the modules' registrations, so installing the same modules into the same hive again fails
/// with `alreadyRegistered`.
///
/// **Where it sits in the group.** A `ServiceGroup` shuts its services down one after another in reverse order. List
/// this service before the services that use the modules' services, so that the modules stop after them.
///
/// **The whole hive stops.** `ServiceHive.shutdown()` stops every module installed in the hive, including modules
/// installed there in other ways or by another `ModulesService`. Give the service a hive whose modules it alone
/// installs.
///
/// Outside a `ServiceGroup` there is no graceful shutdown: ``run()`` then runs until its task is cancelled.
public actor ModulesService: Service, CustomStringConvertible {
    /// The hive the modules are installed in.
    public nonisolated let hive: ServiceHive

    /// The modules to install, in the order given.
    private nonisolated let modules: [any ServiceModule]

    /// What to check once the modules are installed.
    private nonisolated let validation: Validation

    /// Whether ``run()`` was called already.
    private var hasRun = false

    /// How the start ended, once it has: ready, or the error that ``ready()`` throws.
    private var readiness: Result<Void, any Error>?

    /// The tasks waiting in ``ready()``, by a number of their own, so that a cancelled one can leave.
    private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextWaiter = 0

    /// Creates a service that installs `modules` in `hive` when it runs.
    ///
    /// Nothing happens until ``run()``: the modules are neither registered nor started here.
    ///
    /// ```swift
    /// let modules = ModulesService([TradeModule(), AnalyticsModule()], in: hive)
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The modules to install, in any order: they register and start after the modules that provide what
    ///     they need, then in priority order, highest first, and stop in reverse.
    ///   - hive: The hive to install them in. By default, `ServiceHive.shared`.
    ///   - validation: Whether to validate the hive once the modules are installed, before the service is ready. By
    ///     default, ``Validation/none``.
    public init(_ modules: [any ServiceModule], in hive: ServiceHive = .shared, validation: Validation = .none) {
        self.modules = modules
        self.hive = hive
        self.validation = validation
    }

    // MARK: - Running

    /// Installs the modules, validates them if asked to, runs until graceful shutdown or cancellation, then stops
    /// them.
    ///
    /// A `ServiceGroup` calls this; you rarely do. The modules register and start in install order: after the modules
    /// that provide what they need, then by priority, highest first. On graceful shutdown every module installed in
    /// the hive stops, in reverse install order, and this returns.
    /// On cancellation they stop too, and this throws `CancellationError`.
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [ModulesService([TradeModule()], in: hive)], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// - Throws: `ServiceHiveError.moduleFailed(module:stage:underlying:)` when a module fails to register or to
    ///   start; the install was undone, so the hive is as it was. ``ModulesServiceError/checkFailed(_:)`` when
    ///   `ServiceHive.check()` found problems in declared dependencies, and
    ///   ``ModulesServiceError/validationFailed(_:)`` when validation found failures; the modules were stopped.
    ///   `CancellationError` when the task was cancelled, after the modules were stopped, or before anything was installed. ``ModulesServiceError/alreadyRun`` when this
    ///   service has run before.
    public func run() async throws {
        guard !hasRun else { throw ModulesServiceError.alreadyRun }
        hasRun = true
        do {
            try Task.checkCancellation()
            try await hive.install(modules)
            try await validate()
        } catch {
            settle(.failure(error))
            throw error
        }
        settle(.success(()))

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

    /// Checks the installed modules' declared dependencies, then validates them as ``validation`` says; on failure,
    /// stops them and throws. The check builds nothing, so it runs first, and with ``Validation/none`` too.
    private func validate() async throws {
        let check = hive.check()
        guard check.isClean else {
            await hive.shutdown()
            throw ModulesServiceError.checkFailed(check)
        }
        guard let plan = validation.plan else { return }
        let report = await hive.validateAsync(plan)
        guard report.isValid else {
            await hive.shutdown()
            throw ModulesServiceError.validationFailed(report)
        }
    }

    // MARK: - Readiness

    /// Waits until the modules are installed, and validated if the service validates, and throws what made that
    /// fail.
    ///
    /// ```swift
    /// app.beforeServerStarts { try await modules.ready() }
    /// ```
    ///
    /// Any number of tasks may wait, before or while the service runs, or after it started: once the start has
    /// ended, this returns or throws at once, with the same outcome every time. It reports how the start ended, not
    /// whether the modules are still running: after graceful shutdown it still returns.
    ///
    /// - Throws: What ``run()`` threw before the modules were ready: `ServiceHiveError.moduleFailed`,
    ///   ``ModulesServiceError/validationFailed(_:)``, or `CancellationError` when the service's task was cancelled
    ///   before it installed anything. `CancellationError` when the waiting task is cancelled first; the service is
    ///   not affected.
    public func ready() async throws {
        if let readiness { return try readiness.get() }
        let waiter = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Runs on this actor, as does `leave(_:)`: a cancellation that came first is seen here, one that
                // comes later finds the continuation.
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting[waiter] = continuation
                }
            }
        } onCancel: {
            Task { await self.leave(waiter) }
        }
    }

    /// What made the start fail, once it has: `nil` before ``run()``, while the modules start, and once they started.
    ///
    /// Unlike ``ready()``, it never waits: ServiceHiveHummingbird reads it once the application has stopped, to tell a
    /// refused startup from a failure after it.
    package var startFailure: (any Error)? {
        guard case .failure(let error) = readiness else { return nil }
        return error
    }

    /// Ends the wait of a task that was cancelled while it waited in ``ready()``.
    private func leave(_ waiter: Int) {
        waiting.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
    }

    /// Records how the start ended, and tells every task that waits.
    private func settle(_ outcome: Result<Void, any Error>) {
        readiness = outcome
        let waiters = waiting.values
        waiting.removeAll()
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// The service's name in the group's logs and errors: `ModulesService(TradeModule, AnalyticsModule)`, with the
    /// modules' names in the order given.
    public nonisolated var description: String {
        "ModulesService(\(modules.map(\.name).joined(separator: ", ")))"
    }
}

extension ModulesService {
    /// Whether a ``ModulesService`` validates the hive once its modules are installed, and with which samples.
    ///
    /// ```swift
    /// ModulesService([TradeModule()], in: hive, validation: .all)
    /// ModulesService([TradeModule()], in: hive, validation: .all { plan in
    ///     plan.provide(CustomerSession.self, TradeModule.makeCustomerSession())
    /// })
    /// ```
    ///
    /// Validation resolves every registration of the hive once, in a sandbox that it releases, with
    /// `ServiceHive.validateAsync(_:)`. Its factories run, so anything they do outside the process happens once more
    /// at startup.
    public struct Validation: Sendable {
        /// The plan that `validateAsync(_:)` receives, or `nil` for no validation.
        let plan: (@Sendable (inout ServiceHive.ValidationPlan) -> Void)?

        /// No validation: the service is ready once the modules are installed. The default.
        public static let none = Validation(plan: nil)

        /// Validates every registration, without samples: those that need a runtime argument, or a service that a
        /// child hive provides, are skipped or fail.
        public static let all = Validation(plan: { _ in })

        /// Validates every registration, with samples of the services that are provided later, such as a request's
        /// session, and of runtime arguments.
        ///
        /// - Parameter samples: Provides the samples, as the plan of `ServiceHive.validate(_:)` does.
        /// - Returns: The validation.
        public static func all(samples: @escaping @Sendable (inout ServiceHive.ValidationPlan) -> Void) -> Validation {
            Validation(plan: samples)
        }
    }
}
#endif
