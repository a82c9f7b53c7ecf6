extension ServiceHive {
    /// A service that a module declares in its ``ServiceModule/needs`` or ``ServiceModule/provides``: a service type
    /// and, for a named registration, its name.
    ///
    /// ```swift
    /// struct OrdersModule: ServiceModule {
    ///     var needs: [ServiceHive.ServiceReference] {
    ///         [.service(PricingService.self), .service(PricingService.self, name: "premium")]
    ///     }
    ///     var provides: [ServiceHive.ServiceReference] { [.service(OrderService.self)] }
    ///
    ///     func register(in hive: ServiceHive) throws {
    ///         try hive.register(OrderService.self, scope: .singleton) { r in LiveOrders(pricing: try r.resolve()) }
    ///     }
    /// }
    /// ```
    ///
    /// A reference names a service by its type, never a module by its own, so modules that rely on each other's
    /// services still don't import each other: both import the protocol. It stands for the registration of the
    /// service under the name, whatever runtime arguments that registration takes.
    ///
    /// Two references are equal when they name the same type and the same name. The type's identity is kept, not its
    /// name alone, so two types of the same name in different Swift modules are two services.
    public struct ServiceReference: Hashable, Sendable, CustomStringConvertible {
        /// The service and its name as errors and the dependency graph print them, such as
        /// `PricingService (name: "premium")`.
        public let key: ServiceKey
        /// The identity of the service type, as the registry's keys hold it.
        let service: ObjectIdentifier

        private init(key: ServiceKey, service: ObjectIdentifier) {
            self.key = key
            self.service = service
        }

        /// A reference to the registration of `service` under `name`.
        ///
        /// ```swift
        /// var needs: [ServiceHive.ServiceReference] { [.service(PricingService.self, name: "premium")] }
        /// ```
        ///
        /// - Parameters:
        ///   - service: The service type, usually a protocol, as it is registered.
        ///   - name: The registration's name, or `nil` for the registration without a name.
        /// - Returns: The reference.
        public static func service<Service>(_ service: Service.Type, name: String? = nil) -> Self {
            Self(key: ServiceKey(Service.self, name: name), service: ObjectIdentifier(Service.self))
        }

        /// The service and its name: `PricingService`, or `PricingService (name: "premium")`.
        public var description: String { key.description }

        /// Whether two references name the same service type and the same name.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.service == rhs.service && lhs.key.name == rhs.key.name
        }

        /// Hashes the service type and the name.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(service)
            hasher.combine(key.name)
        }

        /// Whether a registration of `key` is one this reference stands for: the same service and name, whatever
        /// its runtime arguments.
        func matches(_ key: RegistrationKey) -> Bool {
            key.service == service && key.name == self.key.name
        }
    }
}
