extension ServiceHive {
    /// What a factory receives to resolve its own dependencies.
    ///
    /// ```swift
    /// try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// A resolver resolves from the hive the factory runs for. Resolves made through it during the factory join
    /// the resolve that called the factory: they share its chain, so cycles are reported instead of overflowing
    /// the stack, and its `.graph` instances.
    ///
    /// A resolver may be kept and used after the factory returns, to resolve a dependency lazily. That is the
    /// way to break a cycle between two services. It does not keep its hive alive, so an instance that keeps its
    /// resolver forms no retain cycle with the hive that caches it.
    ///
    /// - Precondition: The hive is still alive when a kept resolver is used. Using a resolver whose hive has been
    ///   released traps, with the runtime's message about an `unowned` reference.
    public struct Resolver: Sendable {
        @usableFromInline unowned let hive: ServiceHive

        init(hive: ServiceHive) {
            self.hive = hive
        }

        /// Resolves a service registered without arguments. See ``ServiceHive/resolve(_:name:)``.
        ///
        /// - Parameters:
        ///   - service: The type to resolve. It can be inferred from the context.
        ///   - name: The registration's name, or `nil`.
        /// - Returns: The instance, as the scope of its registration says.
        /// - Throws: The errors of ``ServiceHive/resolve(_:name:)``.
        public func resolve<Service>(
            _ service: Service.Type = Service.self,
            name: String? = nil
        ) throws(ServiceHiveError) -> Service {
            try hive.resolveService(Service.self, name: name)
        }

        /// Resolves a service registered with runtime arguments. See ``ServiceHive/resolve(_:name:arguments:)``.
        ///
        /// - Parameters:
        ///   - service: The type to resolve. It can be inferred from the context.
        ///   - name: The registration's name, or `nil`.
        ///   - arguments: The values passed to the factory.
        /// - Returns: A new instance.
        /// - Throws: The errors of ``ServiceHive/resolve(_:name:arguments:)``.
        @inlinable
        public func resolve<Service, each Argument>(
            _ service: Service.Type = Service.self,
            name: String? = nil,
            arguments: repeat each Argument
        ) throws(ServiceHiveError) -> Service {
            try hive.resolve(Service.self, name: name, arguments: repeat each arguments)
        }

        /// Whether resolving `service` without arguments would find a registration.
        ///
        /// - Parameters:
        ///   - service: The type to look for.
        ///   - name: The registration's name, or `nil`.
        /// - Returns: `true` when a registration exists.
        public func isRegistered<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
            hive.isRegistered(Service.self, name: name)
        }
    }
}
