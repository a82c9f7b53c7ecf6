import ServiceHive

/// Registering the business functions that a ``FunctionCenter`` finds by key.
extension ServiceHive {
    /// Registers the business function for a key, so that a ``FunctionCenter`` finds it when a control joins.
    ///
    /// The owning module registers its functions with its services, in its `ServiceModule`'s `register(in:)`:
    ///
    /// ```swift
    /// func register(in hive: ServiceHive) throws {
    ///     try hive.register(CartService.self, scope: .singleton) { r in LiveCartService(resolver: r) }
    ///     try hive.register(function: .cartBadge) { r in
    ///         let cart = try r.resolve(CartService.self)
    ///         return BusinessFunction(currentValue: { cart.totalQuantity }) { badge, count, _ in
    ///             badge.text = count == 0 ? "" : "\(count)"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// It is an ordinary registration: a `.singleton` of `BusinessFunction<Control, Value>` named after the key. So
    /// `registrations` lists it with its module and `file:line`, `validate()` builds it, and a test swaps it inside
    /// `withOverrides`, whose builder has this method too:
    ///
    /// ```swift
    /// try hive.withOverrides {
    ///     $0.register(function: .cartBadge) { _ in BusinessFunction { badge, count, _ in badge.text = "mock" } }
    /// } operation: {
    ///     try FunctionCenter(hive: hive).attach(badge, to: .cartBadge)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the function serves.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds the function, resolving what it needs from the resolver.
    /// - Throws: A `ServiceHiveError`: `alreadyRegistered` when this hive already has a function for the key.
    public func register<Control, Value>(
        function key: FunctionKey<Control, Value>,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> BusinessFunction<Control, Value>
    ) throws {
        try register(
            BusinessFunction<Control, Value>.self, name: key.name, scope: .singleton, file: file, line: line,
            factory: factory)
    }
}
