/// A business module: a unit of an app that registers its services at startup, starts and stops with the app,
/// and receives the app's events.
///
/// ```swift
/// struct TradeModule: ServiceModule {
///     var priority: Int { 100 }
///
///     func register(in hive: ServiceHive) throws {
///         try hive.register(TradeService.self, scope: .singleton) { r in LiveTradeService(pricing: try r.resolve()) }
///     }
///
///     func start(in hive: ServiceHive) async throws {
///         try await hive.resolve(TradeService.self).warmUp()
///     }
/// }
///
/// try await hive.install([TradeModule(), AnalyticsModule()])
/// ```
///
/// ``ServiceHive/install(_:)-([ServiceModule])`` registers every module's services, in priority order, all or nothing; then starts
/// each module in the same order. ``ServiceHive/shutdown()`` stops them in reverse. Every method but
/// ``register(in:)`` has a default that does nothing.
public protocol ServiceModule: Sendable {
    /// The module's name, used in errors and introspection. By default, the name of its type.
    var name: String { get }

    /// The module's place in the startup order: higher installs and starts first, and stops last. Modules with
    /// the same priority keep the order they were given in. By default, 0.
    var priority: Int { get }

    /// Registers the module's services.
    ///
    /// Every registration made here is attributed to the module in ``ServiceHive/registrations`` and in
    /// ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)``. If this throws, every registration of the
    /// install is rolled back.
    ///
    /// - Parameter hive: The hive to register into.
    /// - Throws: Anything; ``ServiceHive/install(_:)-([ServiceModule])`` reports it as
    ///   ``ServiceHiveError/moduleFailed(module:stage:underlying:)``.
    func register(in hive: ServiceHive) throws

    /// Starts the module, after every module of the install has registered its services.
    ///
    /// Registrations made here are attributed to the module, and rolled back with the rest of the install if a later
    /// module fails to start.
    ///
    /// - Parameter hive: The hive the module was installed in.
    /// - Throws: Anything; the modules started before this one are then stopped in reverse order, the install's
    ///   registrations are rolled back, and ``ServiceHive/install(_:)-([ServiceModule])`` reports the error as
    ///   ``ServiceHiveError/moduleFailed(module:stage:underlying:)``.
    func start(in hive: ServiceHive) async throws

    /// Stops the module: on ``ServiceHive/shutdown()``, or when a module started after it fails to start.
    ///
    /// - Parameter hive: The hive the module was installed in.
    func stop(in hive: ServiceHive) async

    /// Handles an event broadcast with ``ServiceHive/broadcast(_:)``. The default ignores every event.
    ///
    /// ```swift
    /// func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
    ///     guard let restock = event as? Restock else { return }
    ///     try? hive.resolve(InventoryService.self).restock(restock.itemId, quantity: restock.quantity)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - hive: The hive the module was installed in.
    func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async
}

extension ServiceModule {
    /// The name of the module's type, such as `TradeModule`.
    public var name: String { String(describing: Self.self) }

    /// Zero, so that modules that don't set a priority install in the order given.
    public var priority: Int { 0 }

    /// Does nothing.
    ///
    /// - Parameter hive: The hive the module was installed in.
    public func start(in hive: ServiceHive) async throws {}

    /// Does nothing.
    ///
    /// - Parameter hive: The hive the module was installed in.
    public func stop(in hive: ServiceHive) async {}

    /// Ignores the event.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - hive: The hive the module was installed in.
    public func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {}
}
