/// A session in memory: nobody signed in, nothing viewed, until the customer acts.
final class LiveCustomerSession: CustomerSession {
    private let state = Protected<(customerId: String?, viewed: [String])>((nil, []))

    var customerId: String? { state.withLock { $0.customerId } }

    func signIn(customerId: String) {
        state.withLock { $0.customerId = customerId }
    }

    var recentlyViewed: [String] { state.withLock { $0.viewed } }

    func view(itemId: String) {
        state.withLock { state in
            state.viewed.removeAll { $0 == itemId }
            state.viewed.insert(itemId, at: 0)
            state.viewed = Array(state.viewed.prefix(TradeRules.recentlyViewedLimit))
        }
    }
}
