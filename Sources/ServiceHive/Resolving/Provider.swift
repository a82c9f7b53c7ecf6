extension ServiceHive {
    /// A way to resolve a service again each time it is needed.
    ///
    /// Resolve one like any service, with no registration of its own:
    ///
    /// ```swift
    /// try hive.register(Checkout.self, scope: .singleton) { r in
    ///     LiveCheckout(newBasket: try r.resolve(ServiceHive.Provider<Basket>.self))
    /// }
    /// let basket = try checkout.newBasket.instance  // a new transient Basket on every read
    /// ```
    ///
    /// Each read of ``instance`` resolves from the hive the provider came from, as a direct resolve would at that
    /// moment: a transient is new each time, a singleton the same, and the overrides are those of the task that reads.
    /// Like ``Lazy``, a provider breaks a construction cycle, since the service holding it is built without resolving
    /// it.
    public struct Provider<Service> {
        private let core: HiveCore
        private let key: RegistrationKey

        init(core: HiveCore, key: RegistrationKey) {
            self.core = core
            self.key = key
        }

        /// The service, resolved now.
        ///
        /// - Throws: A ``ServiceHiveError``, as ``ServiceHive/Resolving/resolve(_:name:)`` does.
        public var instance: Service {
            get throws { try core.resolve(key) }
        }
    }
}

extension ServiceHive.Provider: Sendable where Service: Sendable {}

extension ServiceHive.Provider: DeferredService {
    static func deferred(from core: HiveCore, key: RegistrationKey) -> Self {
        Self(core: core, key: RegistrationKey(Service.self, name: key.name, requiresSendable: key.requiresSendable))
    }
}
