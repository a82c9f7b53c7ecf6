extension ServiceHive {
    /// Runs `operation` with some of this hive's services swapped, visible only to the current task and the tasks it
    /// starts. For tests; a request's own services belong in a ``child(_:)``.
    ///
    /// ```swift
    /// try hive.withOverrides {
    ///     $0.register(TradeService.self) { MockTradeService() }
    /// } operation: {
    ///     let trade = try hive.resolve(TradeService.self)  // the mock
    /// }
    /// ```
    ///
    /// `configure` registers the overrides into an ``Overrides`` builder, which offers every way to register that the
    /// hive does. None of them throws: a second registration of the same key replaces the first, as an assignment
    /// does. So `withOverrides` throws only what `operation` throws, and needs no `try` when `operation` cannot throw.
    ///
    /// Inside the operation every resolve on this hive sees the overrides: direct resolves, resolves inside the
    /// factories of services that are not overridden, resolves in child tasks (`async let`, task groups, `Task {}`),
    /// and resolves from child hives that fall back to this one. `Task.detached` does not inherit them.
    ///
    /// **Precise isolation.** An instance is local to the operation exactly when its construction used an overridden
    /// service, directly or through any chain of factories, in any hive. Everything else is shared with the world
    /// outside, state included: a singleton cached before the operation is reused inside it, unless something it
    /// was built from is overridden here; then the operation builds its own. Instances local to the operation are
    /// released when it ends, and nothing built from an override is ever cached outside it.
    ///
    /// Overrides nest: the inner ones win, and the outer ones are visible again when the inner operation ends. An
    /// override may stand in for a service that was never registered.
    ///
    /// - Parameters:
    ///   - strict: When `true`, a resolve through this hive that no override answers fails with
    ///     ``ServiceHiveError/notOverridden(_:chain:)``, so a test cannot reach a real service by accident.
    ///   - configure: Registers the overrides into the builder it is given.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withOverrides<Result>(
        strict: Bool = false,
        _ configure: (inout Overrides) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let layer = overrideLayer(strict ? .strict : .overrides, configure)
        return try OverrideLayer.$bound.withValue(.init(layer)) { try operation() }
    }

    /// Runs an async `operation` with some of this hive's services swapped, visible only to the current task and the
    /// tasks it starts.
    ///
    /// ```swift
    /// try await hive.withOverrides {
    ///     $0.register(TradeService.self) { MockTradeService() }
    /// } operation: {
    ///     let order = try await checkout.placeOrder()
    /// }
    /// ```
    ///
    /// The rules are those of the synchronous ``withOverrides(strict:_:operation:)``. An unstructured `Task {}` started
    /// inside inherits the overrides and keeps them alive, with their instances, until the task ends.
    ///
    /// - Parameters:
    ///   - strict: When `true`, a resolve through this hive that no override answers fails.
    ///   - configure: Registers the overrides into the builder it is given.
    ///   - isolation: The actor the operation runs on; inferred from the caller.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withOverrides<Result>(
        strict: Bool = false,
        _ configure: (inout Overrides) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let layer = overrideLayer(strict ? .strict : .overrides, configure)
        return try await OverrideLayer.$bound.withValue(.init(layer), operation: operation, isolation: isolation)
    }

    /// A layer over this hive with the overrides that `configure` registers, on top of the current task's layers.
    func overrideLayer(_ kind: OverrideLayer.Kind, _ configure: (inout Overrides) -> Void) -> OverrideLayer {
        var overrides = Overrides()
        configure(&overrides)
        let entries = overrides.hive.family.withLock { state in
            state.withRegistry(overrides.hive.id) { $0.records.map(\.entry) } ?? []
        }
        return OverrideLayer(hive: self, kind: kind, overrides: entries, outer: OverrideLayer.current)
    }
}
