import ServiceHive
import ServiceHiveFunctions

/// The cart feature: the ``CartService`` and the ``ServiceHiveFunctions/FunctionKey/cartBadge`` function.
///
/// Install it with ``TradeModule``, whose pricing, stock and trading the cart uses; apps that don't sell through a
/// cart leave it out. To update cart badges, register a `FunctionCenter`'s poster in the hive:
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
/// - the function of `.cartBadge`, which shows the cart's number of items.
public struct CartModule: ServiceModule {
    /// Creates the module.
    public init() {}

    /// `Cart`.
    public var name: String { "Cart" }

    /// 90: after ``TradeModule``, whose services the cart uses.
    public var priority: Int { 90 }

    /// Registers the cart service and the cart badge's function.
    ///
    /// - Parameter hive: The hive to register into.
    public func register(in hive: ServiceHive) throws {
        try hive.register(CartService.self, scope: .singleton) { r in
            LiveCartService(pricing: try r.resolve(), stock: try r.resolve(), trade: try r.resolve(), resolver: r)
        }
        try hive.register(function: .cartBadge) { r in CartBadge.function(cart: try r.resolve()) }
    }
}
