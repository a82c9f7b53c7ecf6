import ServiceHive

/// The trade business module: pricing, inventory, trading and baskets.
///
/// ```swift
/// try await hive.install([TradeModule()])
/// let order = try hive.resolve(TradeService.self).placeOrder(itemId: "hive-42", quantity: 2)
/// ```
///
/// It registers:
/// - the inventory, a singleton holding the catalog's stock, registered once and exposed as ``InventoryService``
///   and as the read-only ``StockReader``: both resolve to the same instance;
/// - ``PricingService``, a singleton with the catalog's prices, and a `"premium"` variant 10% cheaper;
/// - ``TradeService``, a singleton that depends on both; and a `"premium"` variant with premium pricing;
/// - ``CustomerSession`` and the session's ``Basket``, in the ``ServiceHive/Scope/session`` scope: the app signs
///   out with `hive.resetInstances(in: .session)`. The basket resolves the trade service at its first checkout;
/// - ``Basket`` for any customer, built from a runtime argument: `resolve(Basket.self, arguments: customerId)`;
/// - the `trade` component, ``TradeComponent``, which calls these services by name and by URL;
/// - a ``HealthCheck`` named `trade`, contributed to the collection of health checks: every catalog item has a standard
///   and a premium price.
///
/// It declares these services in ``provides``, so that modules that need them install after it, and needs nothing.
/// On start it checks that every catalog item has a price. It handles ``Restock`` events.
public struct TradeModule: ServiceModule {
    /// The items the module trades.
    public let catalog: [CatalogItem]

    /// Creates the module.
    ///
    /// - Parameter catalog: The items to trade; ``CatalogItem/sample`` by default.
    public init(catalog: [CatalogItem] = CatalogItem.sample) {
        self.catalog = catalog
    }

    /// `Trade`.
    public var name: String { "Trade" }

    /// The services it registers for other modules, such as ``CartModule``: the inventory, as ``InventoryService``
    /// and ``StockReader``; both pricings and both trade services; the customer's session and the baskets. A module
    /// that lists one of them in its `needs` installs after this one.
    public var provides: [ServiceHive.ServiceReference] {
        [
            .service(InventoryService.self), .service(StockReader.self),
            .service(PricingService.self), .service(PricingService.self, name: "premium"),
            .service(TradeService.self), .service(TradeService.self, name: "premium"),
            .service(CustomerSession.self), .service(Basket.self),
        ]
    }

    /// Registers the trade services.
    ///
    /// - Parameter hive: The hive to register into.
    public func register(in hive: ServiceHive) throws {
        let catalog = catalog
        try hive.register(InMemoryInventory.self, scope: .singleton) { InMemoryInventory(catalog: catalog) }
        try hive.forward(InventoryService.self, to: InMemoryInventory.self) { $0 }
        try hive.forward(StockReader.self, to: InMemoryInventory.self) { $0 }
        try hive.register(PricingService.self, scope: .singleton) { CatalogPricing(catalog: catalog) }
        try hive.register(PricingService.self, name: "premium", scope: .singleton) {
            CatalogPricing(catalog: catalog, tier: "premium", discountPercent: 10)
        }
        try hive.register(TradeService.self, scope: .singleton, initializer: LiveTradeService.init)
        try hive.register(TradeService.self, name: "premium", scope: .singleton) { r in
            LiveTradeService(pricing: try r.resolve(PricingService.self, name: "premium"), inventory: try r.resolve())
        }
        try hive.register(CustomerSession.self, scope: .session) { LiveCustomerSession() }
        try hive.register(Basket.self, scope: .session, initializer: CustomerBasket.init(session:trade:))
        try hive.register(Basket.self, arguments: String.self, initializer: CustomerBasket.init(customerId:trade:))
        try TradeComponent.register(in: hive)
        try hive.contribute(HealthCheck.self, name: "trade", scope: .singleton) { r in
            TradeHealthCheck(
                catalog: catalog, pricings: [try r.resolve(), try r.resolve(PricingService.self, name: "premium")])
        }
    }

    /// Checks that every catalog item has a standard price.
    ///
    /// - Parameter hive: The hive the module was installed in.
    /// - Throws: ``TradeError/unknownItem(_:)`` for an item the pricing doesn't know.
    public func start(in hive: ServiceHive) async throws {
        let pricing = try hive.resolve(PricingService.self)
        for item in catalog where pricing.unitPrice(of: item.id) == nil {
            throw TradeError.unknownItem(item.id)
        }
    }

    /// Restocks on ``Restock``; ignores every other event.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - hive: The hive the module was installed in.
    public func handle(_ event: any ServiceModuleEvent, in hive: ServiceHive) async {
        guard let restock = event as? Restock, let inventory = try? hive.resolve(InventoryService.self) else { return }
        inventory.restock(restock.quantity, of: restock.itemId)
    }
}
