import ServiceHive
import ServiceHiveFunctions

/// The cart, in memory: checks each change against pricing, stock and the trade rules, and posts the new total to
/// the cart badges.
final class LiveCartService: CartService {
    private let pricing: any PricingService
    /// The stock, read-only: the cart checks against it and never changes it.
    private let stock: any StockReader
    private let trade: any TradeService
    /// Resolves the hive's `FunctionPoster` at each change, so that a poster registered after the cart was built is
    /// used too.
    private let resolver: ServiceHive.Resolver
    // Lock order: this lock, then the poster's. The poster never calls back into the cart.
    private let cart = Protected<[CartLine]>([])

    init(
        pricing: any PricingService,
        stock: any StockReader,
        trade: any TradeService,
        resolver: ServiceHive.Resolver
    ) {
        self.pricing = pricing
        self.stock = stock
        self.trade = trade
        self.resolver = resolver
    }

    var lines: [CartLine] { cart.withLock { $0 } }

    var totalQuantity: Int { cart.withLock { Self.totalQuantity(of: $0) } }

    func quantity(of itemId: String) -> Int {
        cart.withLock { $0.first { $0.itemId == itemId }?.quantity ?? 0 }
    }

    var total: Money {
        lines.reduce(Money(cents: 0)) { total, line in
            Money(cents: total.cents + (pricing.unitPrice(of: line.itemId) ?? Money(cents: 0)).cents * line.quantity)
        }
    }

    @discardableResult
    func add(_ quantity: Int, of itemId: String) throws(TradeError) -> Int {
        try TradeRules.check(quantity: quantity)
        return try change(itemId) { current in current + quantity }
    }

    @discardableResult
    func reduce(_ quantity: Int, of itemId: String) throws(TradeError) -> Int {
        try TradeRules.check(quantity: quantity)
        return try change(itemId) { current in max(0, current - quantity) }
    }

    @discardableResult
    func setQuantity(_ quantity: Int, of itemId: String) throws(TradeError) -> Int {
        guard quantity >= 0 else { throw .invalidQuantity(quantity) }
        return try change(itemId) { _ in quantity }
    }

    func checkout() throws(TradeError) -> [Order] {
        let poster = self.poster
        return try cart.withLock { (lines) throws(TradeError) in
            var orders: [Order] = []
            defer { poster?.post(Self.totalQuantity(of: lines), to: .cartBadge) }
            while let line = lines.first {
                orders.append(try trade.placeOrder(itemId: line.itemId, quantity: line.quantity))
                lines.removeFirst()
            }
            return orders
        }
    }

    // MARK: - Changing a line

    /// The hive's poster, if the app registered one.
    private var poster: FunctionPoster? {
        try? resolver.resolve(FunctionPoster?.self)
    }

    /// Sets the quantity of `itemId` to what `newQuantity` makes of the current one, after checking the rules, and
    /// posts the new total. The post is made under the cart's lock, so that badges see totals in the order the
    /// changes were made, even when threads change the cart at the same moment.
    private func change(_ itemId: String, to newQuantity: (Int) -> Int) throws(TradeError) -> Int {
        guard pricing.unitPrice(of: itemId) != nil else { throw .unknownItem(itemId) }
        let poster = self.poster
        return try cart.withLock { (lines) throws(TradeError) in
            let index = lines.firstIndex { $0.itemId == itemId }
            let quantity = newQuantity(index.map { lines[$0].quantity } ?? 0)
            if quantity > 0 { try check(quantity, of: itemId) }
            switch (index, quantity) {
            case (let index?, 0): lines.remove(at: index)
            case (let index?, _): lines[index].quantity = quantity
            case (nil, 0): return 0
            case (nil, _): lines.append(CartLine(itemId: itemId, quantity: quantity))
            }
            poster?.post(Self.totalQuantity(of: lines), to: .cartBadge)
            return quantity
        }
    }

    /// Checks that a line of `quantity` units of `itemId` follows the trade rules and the stock.
    private func check(_ quantity: Int, of itemId: String) throws(TradeError) {
        try TradeRules.check(quantity: quantity)
        let available = stock.stock(of: itemId) ?? 0
        guard quantity <= available else {
            throw .outOfStock(itemId: itemId, requested: quantity, available: available)
        }
    }

    private static func totalQuantity(of lines: [CartLine]) -> Int {
        lines.reduce(0) { $0 + $1.quantity }
    }
}
