/// A business module: a unit of an app that registers its services at startup, starts and stops with the app,
/// and receives the app's events.
///
/// ```swift
/// struct TradeModule: ServiceModule {
///     var needs: [ServiceHive.ServiceReference] { [.service(PricingService.self)] }
///     var provides: [ServiceHive.ServiceReference] { [.service(TradeService.self)] }
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
/// try await hive.install([TradeModule(), PricingModule()])
/// ```
///
/// ``ServiceHive/install(_:)-([ServiceModule])`` registers every module's services, all or nothing; then starts each
/// module in the same order. ``ServiceHive/shutdown()`` stops them in reverse. Every method but ``register(in:)`` has
/// a default that does nothing.
///
/// ## The order
///
/// A module declares the services it registers for others in ``provides``, and the services it relies on in
/// ``needs``, by service type, never by module. The install puts every module after the modules that provide what it
/// needs: it registers and starts after them, and stops before them. Among the modules free to go, the one with the
/// higher ``priority`` goes first, then the one given first. Modules that declare nothing install in priority order,
/// highest first, ties in the order given.
///
/// Before any module registers, the install checks the declarations: every need is provided by a module of the
/// install or already registered in the hive or an ancestor, no two modules provide the same service, and the needs
/// form no cycle. After each module registers, it checks that the module registered everything it provides.
public protocol ServiceModule: Sendable {
    /// The module's name, used in errors and introspection. By default, the name of its type.
    var name: String { get }

    /// The module's place among the modules free to go: higher installs and starts first, and stops last. Modules
    /// with the same priority keep the order they were given in. By default, 0.
    ///
    /// A module always goes after the modules that provide what it ``needs``, whatever the priorities: priority only
    /// orders the modules whose needs are met.
    var priority: Int { get }

    /// The services the module relies on, from other modules or from the hive: it registers and starts after the
    /// modules that provide them. By default, none.
    ///
    /// ```swift
    /// var needs: [ServiceHive.ServiceReference] {
    ///     [.service(PricingService.self), .service(PricingService.self, name: "premium")]
    /// }
    /// ```
    ///
    /// Each need must be provided by a module of the same install, or be registered already, in the hive or an
    /// ancestor, when the install begins, such as by a module installed earlier. Otherwise
    /// ``ServiceHive/install(_:)-([ServiceModule])`` throws ``ServiceHiveError/unmetNeed(module:service:providers:)``
    /// before any module registers. A service that each request's child hive provides later is not a need.
    ///
    /// Declare what the module resolves in ``start(in:)``, and what its factories resolve: a need met at install can
    /// still be unregistered later, and the error of a resolve that misses it then names this module.
    var needs: [ServiceHive.ServiceReference] { get }

    /// The services the module registers for other modules: the modules that need them install after this one. By
    /// default, none.
    ///
    /// ```swift
    /// var provides: [ServiceHive.ServiceReference] { [.service(TradeService.self)] }
    /// ```
    ///
    /// The module must register each of them in ``register(in:)``, not later in ``start(in:)``: the modules after it
    /// may use them while they register, such as to forward to them, and it is checked before any module starts.
    /// Otherwise the install is rolled back and throws
    /// ``ServiceHiveError/provisionMissing(module:service:registered:)``. Two modules of one install cannot provide
    /// the same service, and a module cannot both need and provide one.
    var provides: [ServiceHive.ServiceReference] { get }

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

    /// Starts the module, after every module of the install has registered its services, and after the modules that
    /// provide what it ``needs`` have started.
    ///
    /// Registrations made here are attributed to the module, and rolled back with the rest of the install if a later
    /// module fails to start.
    ///
    /// - Parameter hive: The hive the module was installed in.
    /// - Throws: Anything; the modules started before this one are then stopped in reverse order, the install's
    ///   registrations are rolled back, and ``ServiceHive/install(_:)-([ServiceModule])`` reports the error as
    ///   ``ServiceHiveError/moduleFailed(module:stage:underlying:)``.
    func start(in hive: ServiceHive) async throws

    /// Stops the module: on ``ServiceHive/shutdown()``, or when a module started after it fails to start. A module
    /// stops before the modules that provide what it needs.
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

    /// None.
    public var needs: [ServiceHive.ServiceReference] { [] }

    /// None.
    public var provides: [ServiceHive.ServiceReference] { [] }

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
