import ServiceHive
import ServiceHiveComponents

/// The `trade` component: TradeModule's services, called by name, by URL, or through typed wrappers, by code that
/// imports none of the module's types.
///
/// ``TradeModule`` registers it. Its commands:
///
/// | Command | Arguments | Reply | By URL |
/// | --- | --- | --- | --- |
/// | `quote` | `item`, `quantity` | `item`, `quantity`, `unitPrice`, `total` (cents), `tier` | no |
/// | `order` | `item`, `quantity` | `number`, `item`, `quantity`, `total` (cents) | yes |
/// | `track` (async) | `order` | calls back `order`, `progress`; replies `order`, `status` | yes |
///
/// Weak-typed, or by URL:
///
/// ```swift
/// let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
/// let total: Int = try reply.value("total")
/// let order = try await hive.open(URL(string: "shop://trade/order?item=hive-42&quantity=2")!)
/// let tracked = try await hive.open(URL(string: "shop://trade/track?order=2")!) { update in
///     print(update)  // [order: 2, progress: 50]
/// }
/// ```
///
/// Typed, through the wrappers the module publishes:
///
/// ```swift
/// let quote = try hive.call(.tradeQuote, TradeRequest(itemId: "hive-42", quantity: 2))
/// ```
public enum TradeComponent {
    /// `trade`.
    public static let name = "trade"

    /// Registers the component. Its commands resolve the module's services from the hive that is called.
    static func register(in hive: ServiceHive) throws {
        try hive.registerComponent(name) { component in
            component.command(.tradeQuote) { request, call in
                try call.resolver.resolve(TradeService.self).quote(itemId: request.itemId, quantity: request.quantity)
            }
            component.command(.tradeOrder, reachableByURL: true) { request, call in
                let order = try call.resolver.resolve(TradeService.self)
                    .placeOrder(itemId: request.itemId, quantity: request.quantity)
                return OrderReply(order)
            }
            component.command(.tradeTrack, reachableByURL: true) { request, call in
                call.callback(["order": request.order, "progress": 50])
                await Task.yield()
                call.callback(["order": request.order, "progress": 100])
                return TrackReply(order: request.order, status: "delivered")
            }
        }
    }
}

// MARK: - Typed wrappers

extension ServiceHive.Command where Input == TradeRequest, Output == Quote {
    /// `trade/quote`: the price of a quantity of an item, without reserving it.
    public static var tradeQuote: Self { .init(component: TradeComponent.name, name: "quote") }
}

extension ServiceHive.Command where Input == TradeRequest, Output == OrderReply {
    /// `trade/order`: reserves a quantity of an item and places the order. Reachable by URL.
    public static var tradeOrder: Self { .init(component: TradeComponent.name, name: "order") }
}

extension ServiceHive.Command where Input == TrackRequest, Output == TrackReply {
    /// `trade/track`: follows an order, calling back with its progress. `async`, and reachable by URL.
    public static var tradeTrack: Self { .init(component: TradeComponent.name, name: "track") }
}

/// The reply of `trade/order`.
public struct OrderReply: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The order number.
    public var number: Int
    /// The item ordered.
    public var itemId: String
    /// The number of units.
    public var quantity: Int
    /// The price of the order.
    public var total: Money

    /// Creates the reply that reports `order`.
    public init(_ order: Order) {
        number = order.number
        itemId = order.quote.itemId
        quantity = order.quote.quantity
        total = order.quote.total
    }

    /// `order #2: 2 × hive-42 = $25.00`.
    public var description: String { "order #\(number): \(quantity) × \(itemId) = \(total)" }

    enum CodingKeys: String, CodingKey {
        case itemId = "item"
        case number, quantity, total
    }
}

/// The arguments of `trade/track`: `order`.
public struct TrackRequest: Codable, Sendable, Hashable {
    /// The order number.
    public var order: Int

    /// Creates a request.
    public init(order: Int) { self.order = order }
}

/// The reply of `trade/track`.
public struct TrackReply: Codable, Sendable, Hashable {
    /// The order number.
    public var order: Int
    /// Where the order is, such as `delivered`.
    public var status: String

    /// Creates a reply.
    public init(order: Int, status: String) {
        self.order = order
        self.status = status
    }
}

extension Quote: Codable {
    /// Decodes a quote from the reply of `trade/quote`; its `total` is always the unit price times the quantity.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            itemId: try values.decode(String.self, forKey: .itemId),
            quantity: try values.decode(Int.self, forKey: .quantity),
            unitPrice: try values.decode(Money.self, forKey: .unitPrice),
            tier: try values.decode(String.self, forKey: .tier))
    }

    /// Encodes the quote as the reply of `trade/quote`: `item`, `quantity`, `unitPrice`, `total` and `tier`, so that
    /// weak-typed callers read the total without computing it.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(itemId, forKey: .itemId)
        try values.encode(quantity, forKey: .quantity)
        try values.encode(unitPrice, forKey: .unitPrice)
        try values.encode(total, forKey: .total)
        try values.encode(tier, forKey: .tier)
    }

    enum CodingKeys: String, CodingKey {
        case itemId = "item"
        case quantity, unitPrice, total, tier
    }
}

extension Money: Codable {
    /// Decodes an amount from its cents, a whole number.
    public init(from decoder: any Decoder) throws {
        self.init(cents: try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the amount as its cents, so that weak-typed callers read a whole number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cents)
    }
}
