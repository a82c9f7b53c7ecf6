extension ServiceHive {
    /// A dependency that a closure registration declares, so that ``ServiceHive/check()`` can check it without
    /// running the closure.
    ///
    /// ```swift
    /// try hive.register(Checkout.self, scope: .singleton, dependsOn: [.on(Cart.self), .on(Clock.self, name: "utc")]) {
    ///     r in LiveCheckout(cart: try r.resolve(), clock: try r.resolve(name: "utc"))
    /// }
    /// ```
    ///
    /// The type means what a parameter of a registration by initializer means: `.on(Clock?.self)` for a service that
    /// may be missing, `.on(ServiceHive.Lazy<Clock>.self)` or `.on(ServiceHive.Provider<Clock>.self)` for one resolved
    /// later, `.on([HealthCheck].self)` for a collection.
    public struct Dependency: Sendable {
        let declared: @Sendable (_ position: Int) -> DeclaredDependency

        /// A dependency on the registration of `service` named `name`.
        ///
        /// - Parameters:
        ///   - service: The type the closure resolves: a service, or `T?`, `Lazy<T>`, `Provider<T>` or `[T]`.
        ///   - name: The registration's name, or `nil`. A collection has no name.
        /// - Returns: The dependency.
        public static func on<Service>(_ service: Service.Type, name: String? = nil) -> Dependency {
            Dependency { DeclaredDependency(Service.self, position: $0, name: name) }
        }
    }
}
