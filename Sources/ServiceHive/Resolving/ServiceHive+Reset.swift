extension ServiceHive {
    /// Drops every cached shared instance of this hive and keeps the registrations.
    ///
    /// The next resolve of each builds a new instance. Use it between tests that share a hive one after another;
    /// tests that run in parallel should use ``withOverrides(strict:_:operation:)`` instead.
    ///
    /// Instances of child hives that were built from a dropped instance are dropped too, so nothing keeps a stale
    /// one; parent hives keep theirs. An instance registered with `register(_:name:instance:file:line:)` stays the
    /// same instance. A construction in progress on another thread finishes for its caller but is not cached.
    public func resetInstances() {
        reset { _ in true }
    }

    /// Drops the cached instances of one scope, such as a session's, and keeps the registrations.
    ///
    /// ```swift
    /// extension ServiceHive.Scope {
    ///     static let session = Self.named("session")
    /// }
    ///
    /// hive.resetInstances(in: .session)  // signing out: the next resolve builds a new session
    /// ```
    ///
    /// Every cached instance of this hive and its children that was built from a dropped one is dropped too: a
    /// singleton that captured the signed-out user's cart goes with it. A construction in progress on another thread
    /// finishes for its caller but is not cached.
    ///
    /// - Parameter scope: The scope whose instances to drop.
    public func resetInstances(in scope: Scope) {
        reset { $0.entry.scope == scope }
    }

    /// Drops the cached instance of one registration, and every instance built from it, and keeps the registration.
    ///
    /// ```swift
    /// hive.resetInstances(of: TradeService.self)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The registered type.
    ///   - name: The registration's name, or `nil`.
    public func resetInstances<Service>(of service: Service.Type, name: String? = nil) {
        let key = RegistrationKey(Service.self, name: name)
        reset { $0.entry.key == key }
    }

    /// Drops the instances of this hive's records that `select` selects, then every instance of the family built from
    /// one of them.
    private func reset(selecting select: (Record) -> Bool) {
        let dropped = family.withLock { state -> [Slot] in
            var reset: Set<ObjectIdentifier> = []
            var dropped =
                state.withRegistry(id) { registry in
                    registry.dropInstances { record in
                        guard select(record) else { return false }
                        reset.insert(ObjectIdentifier(record.entry))
                        return true
                    }
                } ?? []
            guard !reset.isEmpty else { return dropped }
            for index in state.hives.indices {
                dropped += state.hives[index].registry.dropInstances(builtFrom: reset)
            }
            return dropped
        }
        withExtendedLifetime(dropped) {}  // Released here, outside the lock: a `deinit` may resolve.
    }
}

extension Registry {
    /// Empties the slot of every record that `shouldDrop` selects, whether it holds an instance or a construction in
    /// progress, and returns the old slots for the caller to release after unlocking. An emptied construction
    /// finishes for its caller, and is not cached. A registered instance stays: it is the registration itself.
    mutating func dropInstances(where shouldDrop: (Record) -> Bool) -> [Slot] {
        var dropped: [Slot] = []
        for record in records where record.entry.instance == nil && !record.slot.isEmpty && shouldDrop(record) {
            dropped.append(withSlot(of: record.entry) { exchange(&$0, with: .empty) } ?? .empty)
        }
        return dropped
    }

    /// Empties the slot of every cached instance that was built from one of `entries`. A construction in progress may
    /// already have used one of them: it is told, so that it caches nothing.
    mutating func dropInstances(builtFrom entries: Set<ObjectIdentifier>) -> [Slot] {
        for record in records {
            if case .building(let construction) = record.slot.state {
                construction.dropped.withLock { $0.formUnion(entries) }
            }
        }
        return dropInstances { record in record.slot.instance?.dependencies.uses(any: entries) ?? false }
    }
}
