extension ServiceHive {
    /// Removes this hive's registration of `service` without arguments, and drops its cached instance.
    ///
    /// A parent's registration of the same service is untouched, and becomes visible through this hive again. A
    /// construction in progress on another thread finishes for its caller but is not cached. Instances that other
    /// registrations built from this one keep it.
    ///
    /// - Parameters:
    ///   - service: The registered type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: Whether a registration was removed.
    @discardableResult
    public func unregister<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        remove(RegistrationKey(Service.self, name: name))
    }

    /// Removes this hive's registration of `service` that takes the given argument types.
    ///
    /// ```swift
    /// hive.unregister(Greeter.self, arguments: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - service: The registered type.
    ///   - name: The registration's name, or `nil`.
    ///   - first: The type of the registration's first argument.
    ///   - rest: The types of its other arguments, in order.
    /// - Returns: Whether a registration was removed.
    @discardableResult
    public func unregister<Service, First, each Rest>(
        _ service: Service.Type, name: String? = nil, arguments first: First.Type, _ rest: repeat (each Rest).Type
    ) -> Bool {
        let signature = ArgumentPack.signature(First.self, repeat (each Rest).self)
        return remove(RegistrationKey(Service.self, name: name, arguments: signature))
    }

    /// Removes every registration of this hive, with their cached instances, in one step.
    ///
    /// Parents and children keep theirs; a child's own registrations shadow nothing of this hive afterwards. During an
    /// ``install(_:)-([ServiceModule])``, a failed install restores them.
    public func removeAll() {
        let removed = family.withLock { state in state.withRegistry(id) { $0.drain() } ?? [] }
        if let recorder = InstallRecorder.current, recorder.hive === self {
            for record in removed { recorder.removed(record) }
        }
        withExtendedLifetime(removed) {}  // Released outside the lock: a `deinit` may resolve.
    }

    /// Removes the registration under `key`, and the keys forwarded to it; returns whether there was one.
    ///
    /// Not by `remove(selecting:)`, whose closure and arrays cost an unregister a sixth more
    /// (`Benchmarks/count-instructions 25a`: 10,867 instructions, not 9,334).
    private func remove(_ key: RegistrationKey) -> Bool {
        let removed = family.withLock { state in
            state.withRegistry(id) { $0.remove(key) } ?? []
        }
        if let recorder = InstallRecorder.current, recorder.hive === self {
            for record in removed { recorder.removed(record) }
        }
        return !removed.isEmpty  // The records and their instances are released here, outside the lock.
    }

    /// Removes the registrations under the keys that `select` picks from this hive's registry, with the keys forwarded
    /// to them, in one step; returns how many of the picked keys it removed.
    func remove(selecting select: (Registry) -> [RegistrationKey]) -> Int {
        let (removed, count) = family.withLock { state in
            state.withRegistry(id) { registry -> ([Record], Int) in
                var removed: [Record] = [], count = 0
                for key in select(registry) {
                    let records = registry.remove(key)
                    if !records.isEmpty { count += 1 }
                    removed += records
                }
                return (removed, count)
            } ?? ([], 0)
        }
        if let recorder = InstallRecorder.current, recorder.hive === self {
            for record in removed { recorder.removed(record) }
        }
        return count  // The records and their instances are released here, outside the lock.
    }

    /// Undoes an install: removes the registrations it added, restores the ones it removed that were there before it,
    /// and drops every instance of the family that was built from a registration it added.
    func rollBack(_ changes: InstallRecorder.Changes) {
        let added = Set(changes.added.map(ObjectIdentifier.init))
        let released = family.withLock { state -> [Slot] in
            var released: [Slot] = []
            state.withRegistry(id) { registry in
                for entry in changes.added.reversed() where registry[entry.key]?.entry === entry {
                    released += registry.remove(entry.key).map(\.slot)
                }
                for var record in changes.removed.reversed()
                where registry[record.entry.key] == nil && !added.contains(ObjectIdentifier(record.entry)) {
                    if case .building = record.slot.state { record.slot = .empty }
                    registry.insert(record)
                }
            }
            for index in state.hives.indices {
                released += state.hives[index].registry.dropInstances(builtFrom: added)
            }
            return released
        }
        withExtendedLifetime(released) {}
    }
}
