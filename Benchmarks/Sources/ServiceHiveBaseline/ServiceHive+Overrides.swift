extension ServiceHive {
    // MARK: - Override scopes

    /// Runs `operation` with some of this hive's services swapped, visible only to the current task and the tasks
    /// it starts.
    ///
    /// ```swift
    /// try hive.withOverrides {
    ///     $0.register(TradeService.self) { MockTradeService() }
    /// } operation: {
    ///     let trade = try hive.resolve(TradeService.self)  // the mock
    /// }
    /// ```
    ///
    /// Inside the operation every resolve on this hive sees the overrides: direct resolves, resolves inside the
    /// factories of services that are not overridden, resolves in child tasks (`async let`, task groups,
    /// `Task {}`), and resolves from child hives that fall back to this one. Nothing outside changes, so tests
    /// that run in parallel on ``shared`` each see only their own overrides. `Task.detached` does not inherit the
    /// scope.
    ///
    /// **No leaks.** Inside a scope, every `.singleton` and `.weak` instance of this hive and its descendants is
    /// built for the scope and cached in it, even one that already exists outside. So a real singleton that
    /// depends on an overridden service is rebuilt with the override, and nothing built while overrides are
    /// visible is ever cached outside the scope. The scope's instances are released when the scope ends.
    ///
    /// Scopes nest: the inner scope's overrides win, and the outer scope's are visible again when it ends.
    /// An override may stand in for a service that was never registered.
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides. Registering never throws here; the last registration of a key wins.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withOverrides<Result>(
        _ configure: (inout Overrides) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let scope = makeOverrideScope(configure)
        return try OverrideScope.$current.withValue(scope) {
            try operation()
        }
    }

    /// Runs an async `operation` with some of this hive's services swapped, visible only to the current task and
    /// the tasks it starts.
    ///
    /// ```swift
    /// try await hive.withOverrides {
    ///     $0.register(TradeService.self) { MockTradeService() }
    /// } operation: {
    ///     let order = try await checkout.placeOrder()
    /// }
    /// ```
    ///
    /// The rules are those of the synchronous ``withOverrides(_:operation:)-(_,()->Result)``. An unstructured
    /// `Task {}` started inside inherits the scope and keeps it alive, with its instances, until the task ends.
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides. Registering never throws here; the last registration of a key wins.
    ///   - isolation: The actor the operation runs on; inferred from the caller.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withOverrides<Result>(
        _ configure: (inout Overrides) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let scope = makeOverrideScope(configure)
        return try await OverrideScope.$current.withValue(scope, operation: operation, isolation: isolation)
    }

    private func makeOverrideScope(_ configure: (inout Overrides) -> Void) -> OverrideScope {
        var overrides = Overrides()
        configure(&overrides)
        return OverrideScope(hive: self, overrides: overrides.entries, outer: OverrideScope.current)
    }

    // MARK: - The override builder

    /// The overrides of one ``ServiceHive/withOverrides(_:operation:)-(_,()->Result)`` scope.
    ///
    /// It offers the same registration forms as a hive. Registering never throws: within one builder, the last
    /// registration of a service, name and argument list wins.
    public struct Overrides {
        /// The overrides in the order registered; `Registry` keeps the last of each key.
        var entries: [Entry] = []

        init() {}

        /// Overrides `service` with a factory.
        ///
        /// - Parameters:
        ///   - service: The type to override.
        ///   - name: The registration's name, or `nil`.
        ///   - scope: How long the scope keeps what the factory builds; shared instances live as long as the scope.
        ///   - file: The file of the override, recorded for errors and introspection.
        ///   - line: The line of the override.
        ///   - factory: Builds an instance.
        public mutating func register<Service>(
            _ service: Service.Type,
            name: String? = nil,
            scope: Scope = .transient,
            file: String = #fileID,
            line: UInt = #line,
            factory: @escaping @Sendable () throws -> Service
        ) {
            store(PendingRegistration(name: name, scope: scope, factory: factory), file: file, line: line)
        }

        /// Overrides `service` with a factory that resolves its dependencies.
        ///
        /// - Parameters:
        ///   - service: The type to override.
        ///   - name: The registration's name, or `nil`.
        ///   - scope: How long the scope keeps what the factory builds; shared instances live as long as the scope.
        ///   - file: The file of the override, recorded for errors and introspection.
        ///   - line: The line of the override.
        ///   - factory: Builds an instance from its dependencies, which see the scope's overrides too.
        public mutating func register<Service>(
            _ service: Service.Type,
            name: String? = nil,
            scope: Scope = .transient,
            file: String = #fileID,
            line: UInt = #line,
            factory: @escaping @Sendable (Resolver) throws -> Service
        ) {
            store(PendingRegistration(name: name, scope: scope, factory: factory), file: file, line: line)
        }

        /// Overrides `service` with a factory that takes runtime arguments.
        ///
        /// - Parameters:
        ///   - service: The type to override.
        ///   - name: The registration's name, or `nil`.
        ///   - file: The file of the override, recorded for errors and introspection.
        ///   - line: The line of the override.
        ///   - factory: Builds an instance from the resolver and the arguments passed to `resolve`.
        @inlinable
        public mutating func register<Service, each Argument>(
            _ service: Service.Type,
            name: String? = nil,
            file: String = #fileID,
            line: UInt = #line,
            factory: @escaping @Sendable (Resolver, repeat each Argument) throws -> Service
        ) {
            storeArgumentOverride(
                ArgumentFactory(factory), name: name, site: RegistrationSite(fileID: file, line: line))
        }

        /// Overrides `service` with an instance that already exists.
        ///
        /// - Parameters:
        ///   - service: The type to override.
        ///   - name: The registration's name, or `nil`.
        ///   - instance: The instance every resolve in the scope returns.
        ///   - file: The file of the override, recorded for errors and introspection.
        ///   - line: The line of the override.
        public mutating func register<Service>(
            _ service: Service.Type,
            name: String? = nil,
            instance: Service,
            file: String = #fileID,
            line: UInt = #line
        ) {
            store(PendingRegistration(name: name, instance: instance), file: file, line: line)
        }

        /// Adds an override whose factory takes runtime arguments; the `@inlinable` `register` builds the factory.
        @usableFromInline
        mutating func storeArgumentOverride<Service>(
            _ factory: ArgumentFactory<Service>,
            name: String?,
            site: RegistrationSite
        ) {
            entries.append(factory.registration(name: name).makeEntry(site: site))
        }

        private mutating func store<Service>(_ registration: PendingRegistration<Service>, file: String, line: UInt) {
            entries.append(registration.makeEntry(site: RegistrationSite(fileID: file, line: line)))
        }
    }
}
