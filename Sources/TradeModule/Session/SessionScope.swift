import ServiceHive

extension ServiceHive.Scope {
    /// The scope of a customer's session: its services are shared like singletons until the app signs the customer
    /// out by dropping them all at once.
    ///
    /// ```swift
    /// try hive.resolve(CustomerSession.self).signIn(customerId: "customer-7")
    /// let basket = try hive.resolve(Basket.self)  // customer-7's, the same one on every resolve
    /// hive.resetInstances(in: .session)  // signing out: the next resolve builds a new session
    /// ```
    ///
    /// ``TradeModule`` registers ``CustomerSession`` and the session's ``Basket`` in it. Singletons, such as the
    /// inventory and the trade service, stay when the session goes; an app's own session services join it by
    /// registering with `scope: .session`.
    public static let session = ServiceHive.Scope.named("session")
}
