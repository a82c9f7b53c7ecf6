import ServiceHive

/// Swapping a business function in a test, in the builder of `withOverrides`.
extension ServiceHive.Overrides {
    /// Registers the business function for a key in place of the hive's, so that a ``FunctionCenter`` made inside
    /// the override finds this one.
    ///
    /// ```swift
    /// hive.withOverrides {
    ///     $0.register(function: .cartBadge) { _ in BusinessFunction { badge, count, _ in badge.text = "mock" } }
    /// } operation: {
    ///     try FunctionCenter(hive: hive).attach(badge, to: .cartBadge)
    /// }
    /// ```
    ///
    /// A second registration for the same key in one builder replaces the first.
    ///
    /// - Parameters:
    ///   - key: The key the function serves.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - factory: Builds the function, resolving what it needs from the resolver.
    public mutating func register<Control, Value>(
        function key: FunctionKey<Control, Value>,
        file: String = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (ServiceHive.Resolver) throws -> BusinessFunction<Control, Value>
    ) {
        register(
            BusinessFunction<Control, Value>.self, name: key.name, scope: .singleton, file: file, line: line,
            factory: factory)
    }
}
