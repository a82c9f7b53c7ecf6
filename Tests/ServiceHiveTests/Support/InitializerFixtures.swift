import ServiceHive
import Support

// The services of the tests of registration by initializer and of the graph check: an order book that depends on
// pricing and a ledger, as the article's example does.

protocol Pricing: AnyObject, Sendable { func price(_ symbol: String) -> Int }
protocol Books: AnyObject, Sendable { var entries: Int { get } }
protocol Orders: AnyObject, Sendable {
    var pricing: any Pricing { get }
    var ledger: any Books { get }
}

final class FixedPricing: Pricing {
    func price(_ symbol: String) -> Int { symbol.count }
}

final class MemoryBooks: Books {
    let entries: Int
    init() { entries = 0 }
    init(entries: Int) { self.entries = entries }
}

final class LiveOrders: Orders {
    let pricing: any Pricing
    let ledger: any Books
    init(pricing: any Pricing, ledger: any Books) {
        self.pricing = pricing
        self.ledger = ledger
    }
    /// An overload, so that the tests name the initializer they mean.
    init(pricing: any Pricing) {
        self.pricing = pricing
        ledger = MemoryBooks(entries: -1)
    }
}

/// Takes each kind of parameter the hive understands.
final class Dashboard: Sendable {
    let pricing: (any Pricing)?
    let ledger: ServiceHive.Lazy<any Books>
    let orders: ServiceHive.Provider<any Orders>
    let checks: [any HealthCheck]
    init(
        pricing: (any Pricing)?, ledger: ServiceHive.Lazy<any Books>, orders: ServiceHive.Provider<any Orders>,
        checks: [any HealthCheck]
    ) {
        self.pricing = pricing
        self.ledger = ledger
        self.orders = orders
        self.checks = checks
    }
}

/// A ledger whose initializer throws, or awaits.
final class RemoteBooks: Books {
    struct Unreachable: Error {}
    let entries: Int
    init(pricing: any Pricing, reachable: Bool) throws {
        guard reachable else { throw Unreachable() }
        entries = pricing.price("remote")
    }
    init(pricing: any Pricing) async {
        await Task.yield()
        entries = pricing.price("async")
    }
}

/// Built with a runtime argument first.
final class Quote: Sendable {
    let symbol: String
    let quantity: Int
    let total: Int
    init(symbol: String, pricing: any Pricing) {
        self.symbol = symbol
        quantity = 1
        total = pricing.price(symbol)
    }
    init(symbol: String, quantity: Int, pricing: any Pricing) {
        self.symbol = symbol
        self.quantity = quantity
        total = pricing.price(symbol) * quantity
    }
}

/// A ledger that wraps another: the decorator that would take itself without a name.
final class AuditedBooks: Books {
    let inner: any Books
    var entries: Int { inner.entries + 1 }
    init(inner: any Books) { self.inner = inner }
}

/// A health check built by initializer.
final class BooksCheck: HealthCheck {
    let label = "ledger"
    let ledger: any Books
    init(ledger: any Books) { self.ledger = ledger }
}

/// Not `Sendable`, with two parameters, one a collection: resolved as a registration that is not known to be
/// `Sendable`, the collection as every contribution.
final class Tally {
    let pricing: any Pricing
    let checks: [any HealthCheck]
    init(pricing: any Pricing, checks: [any HealthCheck]) {
        self.pricing = pricing
        self.checks = checks
    }
}

/// Five parameters, one more than the initializers that have overloads of their own: resolved through the parameter
/// pack, a collection and an optional among them.
final class Summary: Sendable {
    let pricing: any Pricing
    let ledger: any Books
    let orders: any Orders
    let checks: [any HealthCheck]
    let spare: (any Pricing)?
    init(
        pricing: any Pricing, ledger: any Books, orders: any Orders, checks: [any HealthCheck], spare: (any Pricing)?
    ) {
        self.pricing = pricing
        self.ledger = ledger
        self.orders = orders
        self.checks = checks
        self.spare = spare
    }
}
