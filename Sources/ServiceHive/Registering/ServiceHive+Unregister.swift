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
        let recorder = installRecorder
        let removed = family.withLock { state in
            let removed = state.withRegistry(id) { $0.drain() } ?? []
            for record in removed { recorder?.removed(record) }
            return removed
        }
        withExtendedLifetime(removed) {}  // Released outside the lock: a `deinit` may resolve.
    }

    /// Removes the registration under `key`, and the keys forwarded to it; returns whether there was one.
    ///
    /// Not by `remove(selecting:)`, whose closure and arrays cost an unregister a sixth more
    /// (`Benchmarks/count-instructions 25a`: 10,867 instructions, not 9,334).
    private func remove(_ key: RegistrationKey) -> Bool {
        let recorder = installRecorder
        // While the modules of an install register, what they registered is staged, not in the hive yet.
        if let recorder, recorder.unstage(key) { return true }
        let removed = family.withLock { state in
            let removed = state.withRegistry(id) { $0.remove(key) } ?? []
            for record in removed { recorder?.removed(record) }
            return removed
        }
        return !removed.isEmpty  // The records and their instances are released here, outside the lock.
    }

    /// Removes the registrations under the keys that `select` picks from this hive's registry, with the keys forwarded
    /// to them, in one step; returns how many of the picked keys it removed.
    func remove(selecting select: (Registry) -> [RegistrationKey]) -> Int {
        let recorder = installRecorder
        let (removed, count) = family.withLock { state in
            let (removed, count) =
                state.withRegistry(id) { registry -> ([Record], Int) in
                    var removed: [Record] = [], count = 0
                    for key in select(registry) {
                        let records = registry.remove(key)
                        if !records.isEmpty { count += 1 }
                        removed += records
                    }
                    return (removed, count)
                } ?? ([], 0)
            for record in removed { recorder?.removed(record) }
            return (removed, count)
        }
        withExtendedLifetime(removed) {}  // The records and their instances are released here, outside the lock.
        return count
    }

    /// The install into this hive running in the current task, if any: it records what this task removes, in the
    /// step that removes it.
    private var installRecorder: InstallRecorder? {
        InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
    }

    /// Undoes an install, and takes it off the family's running installs: removes the registrations it added, restores
    /// the ones it removed that were there before it, in their places, and drops every instance of the family that
    /// was built from a registration it added.
    ///
    /// Installs that run at the same time compose. A place (a key, or a contribution's name in its collection) that
    /// no longer holds what this install put there is left as it is: what holds it now was put there by someone else.
    /// When that someone else is another install, still running, which removed this install's registration, the
    /// restoring of what this install removed there passes to it: if it fails too, its rollback puts back what was
    /// there before both, not this install's registration.
    func rollBack(_ recorder: InstallRecorder) {
        let released = family.withLock { state -> [Slot] in
            state.installs.removeAll { $0 === recorder }
            let others = state.installs
            let changes = recorder.changes
            let added = Set(changes.added.map(ObjectIdentifier.init))
            let removedHere = Set(changes.removed.map { ObjectIdentifier($0.entry) })
            /// The first registration this install removed from the place of `entry`, and did not add itself.
            func before(_ entry: Entry) -> Record? {
                changes.removed.first { !added.contains(ObjectIdentifier($0.entry)) && $0.entry.hasPlace(of: entry) }
            }
            var released: [Slot] = []
            var kept = Set<ObjectIdentifier>()  // What this install removed, and leaves to others.
            state.withRegistry(id) { registry in
                for entry in changes.added.reversed() {
                    if registry[entry.key]?.entry === entry {
                        released += registry.remove(entry.key).map(\.slot)
                        continue
                    }
                    // Not by this install: by another one or by a change outside any install, which stays.
                    guard !removedHere.contains(ObjectIdentifier(entry)) else { continue }
                    let record = before(entry)
                    for other in others where other.handOver(entry, restoring: record) { break }
                    if let record { kept.insert(ObjectIdentifier(record.entry)) }
                }
                for var record in changes.removed.reversed()
                where !added.contains(ObjectIdentifier(record.entry)) && !kept.contains(ObjectIdentifier(record.entry))
                    && registry.isFree(for: record.entry)
                {
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

extension Entry {
    /// Whether this registration takes the place of `other`: the same key, or contributions of the same name to the
    /// same collection, which the hive refuses to hold together.
    func hasPlace(of other: Entry) -> Bool {
        if key == other.key { return true }
        guard let name = contributionName else { return false }
        return other.contributionName == name && other.key.service == key.service
    }
}

extension Registry {
    /// Whether `entry` may be inserted: its key is free, and, for a named contribution, its name too.
    func isFree(for entry: Entry) -> Bool {
        guard self[entry.key] == nil else { return false }
        guard let name = entry.contributionName else { return true }
        return contribution(named: name, like: entry) == nil
    }
}
