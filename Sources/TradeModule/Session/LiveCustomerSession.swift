/// A session in memory: nobody signed in, nothing viewed, until the customer acts.
///
/// ``TradeModule`` registers one per ``ServiceHive/Scope/session``; a server gets one per request from
/// ``TradeModule/makeCustomerSession()``, and provides it to the request's hive. Internal, as every implementation of
/// the module is: callers see only ``CustomerSession``.
final class LiveCustomerSession: CustomerSession {
    private let state = Protected<(customerId: String?, viewed: [String])>((nil, []))

    /// A session where nobody has signed in yet.
    init() {}

    /// The customer who signed in, or `nil`.
    var customerId: String? { state.withLock { $0.customerId } }

    /// Signs `customerId` in.
    ///
    /// - Parameter customerId: The customer.
    func signIn(customerId: String) {
        state.withLock { $0.customerId = customerId }
    }

    /// The items viewed, the most recent first.
    var recentlyViewed: [String] { state.withLock { $0.viewed } }

    /// Records that the customer viewed `itemId`.
    ///
    /// - Parameter itemId: The item.
    func view(itemId: String) {
        state.withLock { state in
            state.viewed.removeAll { $0 == itemId }
            state.viewed.insert(itemId, at: 0)
            state.viewed = Array(state.viewed.prefix(TradeRules.recentlyViewedLimit))
        }
    }
}
