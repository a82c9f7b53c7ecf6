import ServiceHive
import ServiceHiveFunctions

/// The cart feature: the ``CartService`` and the ``ServiceHiveFunctions/FunctionKey/cartBadge`` function.
///
/// Install it with ``TradeModule``, whose pricing, stock and trading the cart uses and declares in its ``needs``, in
/// either order; apps that don't sell through a cart leave it out. To update cart badges, register a
/// `FunctionCenter`'s poster in the hive:
///
/// ```swift
/// let center = FunctionCenter(hive: hive)
/// try hive.register(FunctionPoster.self, instance: center.poster)
/// try await hive.install([TradeModule(), CartModule()])
/// try center.attach(badge, to: .cartBadge)
/// ```
///
/// It registers:
/// - ``CartService``, a singleton;
/// - the function of `.cartBadge`, which shows the cart's number of items;
/// - a ``HealthCheck`` named `cart`, contributed to the collection of health checks: every line of the cart can be
///   priced, and is in stock.
public struct CartModule: ServiceModule {
    /// Creates the module.
    public init() {}

    /// `Cart`.
    public var name: String { "Cart" }

    /// The pricing, the stock and the trading of ``TradeModule``, which the cart uses: the cart installs after the
    /// module that provides them, and an install without one fails before any module registers.
    public var needs: [ServiceHive.ServiceReference] {
        [.service(PricingService.self), .service(StockReader.self), .service(TradeService.self)]
    }

    /// ``CartService``.
    public var provides: [ServiceHive.ServiceReference] { [.service(CartService.self)] }

    /// Registers the cart service and the cart badge's function.
    ///
    /// - Parameter hive: The hive to register into.
    public func register(in hive: ServiceHive) throws {
        try hive.register(CartService.self, scope: .singleton) { r in
            LiveCartService(pricing: try r.resolve(), stock: try r.resolve(), trade: try r.resolve(), resolver: r)
        }
        try hive.register(function: .cartBadge) { r in CartBadge.function(cart: try r.resolve()) }
        try hive.contribute(HealthCheck.self, name: "cart", scope: .singleton, initializer: CartHealthCheck.init)
    }
}
