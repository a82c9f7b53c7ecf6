/// A session in memory: nobody signed in, nothing viewed, until the customer acts.
///
/// ``TradeModule`` registers one per ``ServiceHive/Scope/session``; a server makes one per request, and provides it to
/// the request's hive.
public final class LiveCustomerSession: CustomerSession {
    private let state = Protected<(customerId: String?, viewed: [String])>((nil, []))

    /// A session where nobody has signed in yet.
    public init() {}

    /// The customer who signed in, or `nil`.
    public var customerId: String? { state.withLock { $0.customerId } }

    /// Signs `customerId` in.
    ///
    /// - Parameter customerId: The customer.
    public func signIn(customerId: String) {
        state.withLock { $0.customerId = customerId }
    }

    /// The items viewed, the most recent first.
    public var recentlyViewed: [String] { state.withLock { $0.viewed } }

    /// Records that the customer viewed `itemId`.
    ///
    /// - Parameter itemId: The item.
    public func view(itemId: String) {
        state.withLock { state in
            state.viewed.removeAll { $0 == itemId }
            state.viewed.insert(itemId, at: 0)
            state.viewed = Array(state.viewed.prefix(TradeRules.recentlyViewedLimit))
        }
    }
}
