#if Hummingbird
import ServiceHive
import TradeModule

/// The session of one request's customer, whom a header names: the server has no sign-in of its own.
final class RequestCustomerSession: CustomerSession {
    private let state: Locked<(customerId: String?, viewed: [String])>

    init(customerId: String) {
        state = Locked((customerId, []))
    }

    var customerId: String? { state.withLock { $0.customerId } }

    func signIn(customerId: String) {
        state.withLock { $0.customerId = customerId }
    }

    var recentlyViewed: [String] { state.withLock { $0.viewed } }

    func view(itemId: String) {
        state.withLock { state in
            state.viewed.removeAll { $0 == itemId }
            state.viewed.insert(itemId, at: 0)
        }
    }
}
#endif
