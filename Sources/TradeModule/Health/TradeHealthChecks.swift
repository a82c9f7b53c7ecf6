/// TradeModule's health check: every item of the catalog has a price, in the standard and the premium pricing.
struct TradeHealthCheck: HealthCheck {
    let catalog: [CatalogItem]
    let pricings: [any PricingService]

    var name: String { "trade" }

    func check() async -> HealthStatus {
        for pricing in pricings {
            if let item = catalog.first(where: { pricing.unitPrice(of: $0.id) == nil }) {
                return .unhealthy("no \(pricing.tier) price for \(item.id)")
            }
        }
        return .healthy
    }
}

/// CartModule's health check: every line of the cart can still be priced, and is in stock.
struct CartHealthCheck: HealthCheck {
    let cart: any CartService
    let pricing: any PricingService
    let stock: any StockReader

    var name: String { "cart" }

    func check() async -> HealthStatus {
        for line in cart.lines {
            guard pricing.unitPrice(of: line.itemId) != nil else { return .unhealthy("no price for \(line.itemId)") }
            let available = stock.stock(of: line.itemId) ?? 0
            if available < line.quantity {
                return .unhealthy("\(line.quantity) of \(line.itemId) in the cart, \(available) in stock")
            }
        }
        return .healthy
    }
}
