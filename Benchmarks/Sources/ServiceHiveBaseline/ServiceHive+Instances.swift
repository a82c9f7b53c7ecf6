extension ServiceHive {
    /// Drops every cached `.singleton` and `.weak` instance of this hive and keeps the registrations.
    ///
    /// The next resolve of each builds a new instance. Use it between tests that share a hive one after another;
    /// tests that run in parallel should use ``withOverrides(_:operation:)-(_,()->Result)`` instead.
    ///
    /// Parent and child hives keep their instances, as do override scopes, whose instances end with the scope.
    /// An instance registered with `register(_:name:instance:file:line:)` stays the same instance. A construction
    /// in progress on another thread finishes for its caller but is not cached.
    public func resetInstances() {
        let dropped = state.lock.withLock { () -> [Slot] in
            var slots: [Slot] = []
            for entry in state.registry.pointee.allEntries where entry.scope == .singleton || entry.scope == .weak {
                if case .empty = entry.slot { continue }
                slots.append(entry.replaceSlot(with: .empty))
            }
            return slots
        }
        // Released here, outside the lock: a `deinit` may resolve.
        withExtendedLifetime(dropped) {}
    }
}
