/// The session of the customer using the app: who is signed in, and what they looked at.
///
/// ``TradeModule`` registers it in the ``ServiceHive/Scope/session`` scope, so every resolve returns the same session
/// until the app signs out by dropping the scope's instances, the session's ``Basket`` with them:
///
/// ```swift
/// let session = try hive.resolve(CustomerSession.self)
/// session.signIn(customerId: "customer-7")
/// session.view(itemId: "smoker")
///
/// hive.resetInstances(in: .session)  // signing out
/// try hive.resolve(CustomerSession.self).customerId  // nil: a new session, of a guest
/// ```
public protocol CustomerSession: AnyObject, Sendable {
    /// The signed-in customer's ID, or `nil` while a guest uses the session.
    var customerId: String? { get }

    /// Signs a customer in. The session's basket, filled as a guest or not, is theirs from now on.
    ///
    /// - Parameter customerId: The customer's ID.
    func signIn(customerId: String)

    /// The items viewed in this session, the most recent first, each once; at most 10.
    var recentlyViewed: [String] { get }

    /// Records that the customer viewed an item.
    ///
    /// - Parameter itemId: The item.
    func view(itemId: String)
}

extension TradeModule {
    /// A new customer session, of a guest: nobody signed in, nothing viewed.
    ///
    /// ``TradeModule`` registers the app's session in the ``ServiceHive/Scope/session`` scope, one at a time. A server,
    /// which serves many customers at once, makes one per request instead, and provides it to the request's hive:
    ///
    /// ```swift
    /// router.add(middleware: HiveMiddleware(hive) { request, _, provisions in
    ///     let session = TradeModule.makeCustomerSession()
    ///     session.signIn(customerId: request.headers[customerHeader] ?? "guest")
    ///     provisions.provide(CustomerSession.self, session)
    /// })
    /// ```
    ///
    /// The implementation stays internal to the module: callers see only ``CustomerSession``.
    ///
    /// - Returns: A session that keeps its state in memory, safe to use from any thread.
    public static func makeCustomerSession() -> any CustomerSession {
        LiveCustomerSession()
    }
}
