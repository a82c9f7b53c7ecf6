import ServiceHive

/// Quotes and places orders for items.
public protocol TradeService: Sendable {
    /// The price of one unit of `itemId`, in cents.
    func quote(itemId: String) -> Int
}

struct LiveTradeService: TradeService {
    func quote(itemId: String) -> Int { 100 }
}

/// Registers the trade services.
public func registerTradeServices(into hive: ServiceHive) throws {
    try hive.register(TradeService.self) { LiveTradeService() }
}
