// Changing a hive's registry: adding and removing registrations, and the slot where each caches its instance. Only
// code holding the family lock changes a registry.

extension Registry {
    /// Stores `record` under its entry's key. The caller has checked that the key is free, and that a forward's target
    /// is registered here.
    mutating func insert(_ record: Record) {
        let key = record.entry.key
        reads.registers(key.service)
        forgetSnapshot(of: key.service)
        services.update(key.service, empty: { Registrations() }) { registrations in
            if key.isPlain { registrations.plain = record } else { registrations.insertVariant(record) }
        }
        if let target = record.entry.target {
            services.update(target.service, empty: { Registrations() }) { $0.forwards.append(key) }
        }
    }

    /// Removes the record under `key`, with every forward to it, and returns them for the caller to release after
    /// unlocking.
    mutating func remove(_ key: RegistrationKey) -> [Record] {
        guard let removed = removeOne(key) else { return [] }
        let forwards = services.index(of: key.service).map { services[bucket: $0].forwards } ?? []
        return [removed] + forwards.filter { self[$0]?.entry.target == key }.compactMap { removeOne($0) }
    }

    /// Removes the record under `key` alone.
    private mutating func removeOne(_ key: RegistrationKey) -> Record? {
        forgetSnapshot(of: key.service)
        let removed = withRegistrations(key.service) { registrations -> Record? in
            if key.isPlain { return exchange(&registrations.plain, with: nil) }
            return registrations.position(of: key).map { registrations.removeVariant(at: $0) }
        }
        guard let removed = removed ?? nil else { return nil }
        reads.changeLettingGo()  // Before the caller lets it go, no reader may still be copying its instance.
        if let target = removed.entry.target {
            withRegistrations(target.service) { registrations in
                if let position = registrations.forwards.firstIndex(of: key) {
                    registrations.forwards.swapAt(position, registrations.forwards.count - 1)
                    registrations.forwards.removeLast()
                }
            }
        }
        return removed
    }

    /// Runs `body` on the registrations of `service`, and forgets them if they are left empty; `nil` when there are
    /// none.
    @discardableResult
    private mutating func withRegistrations<Result>(
        _ service: ObjectIdentifier,
        _ body: (inout Registrations) -> Result
    ) -> Result? {
        guard services.index(of: service) != nil else { return nil }
        let (result, isEmpty) = services.update(service, empty: { Registrations() }) { registrations in
            let result = body(&registrations)
            return (result, registrations.isEmpty)
        }
        if isEmpty { _ = services.removeValue(for: service) }
        return result
    }

    /// Runs `body` on the slot of `entry`'s record; `nil` when `entry` is no longer the one registered.
    mutating func withSlot<Result>(of entry: Entry, _ body: (inout Slot) -> Result) -> Result? {
        let key = entry.key
        forgetSnapshot(of: key.service)  // A collection's values follow its instances.
        let reads = reads
        return withRegistrations(key.service) { registrations -> Result? in
            if key.isPlain {
                guard registrations.plain?.entry === entry else { return nil }
                return Self.changing(&registrations.plain!.slot, reads, body)
            }
            guard let position = registrations.position(of: key), registrations.variants[position].entry === entry
            else { return nil }
            return Self.changing(&registrations.variants[position].slot, reads, body)
        } ?? nil
    }

    /// Runs `body` on `slot`; when it takes the slot's instance away, waits for the readers that may still copy it.
    private static func changing<Result>(
        _ slot: inout Slot, _ reads: HiveReads, _ body: (inout Slot) -> Result
    ) -> Result {
        let before = slot.instance.map(ObjectIdentifier.init)
        let result = body(&slot)
        if let before, before != slot.instance.map(ObjectIdentifier.init) { reads.changeLettingGo() }
        return result
    }

    /// Moves the registrations out, for the caller to `destroy()` after unlocking, and leaves this registry empty with
    /// the same `reads`, which the place keeps for the family's lifetime. First invalidates the answers kept from it,
    /// and waits for the readers that may still copy one of its instances.
    mutating func moveOut() -> Registry {
        // Unretained: `reads` retained and released the place's reads, which a released request's child only reads
        // (`Benchmarks/count-instructions 12`: 5,067 instructions, not 5,114).
        unmanagedReads._withUnsafeGuaranteedRef { $0.changeLettingGo() }
        return exchange(&self, with: Registry(reads: unmanagedReads))
    }

    /// Frees the tables and releases the records in them. Call it after unlocking, on a registry that no hive has any
    /// more (`HiveFamily.removeHive(_:)` hands one out): releasing an instance runs its `deinit`, which may resolve. The
    /// registry must not be used afterwards. Its `reads` stay with the place it came from.
    func destroy() {
        snapshots.destroy()  // Never the last to hold a value: the records hold them all.
        services.destroy()
    }

    /// Frees the registry and returns its records, for the caller to release after unlocking: releasing an instance
    /// runs its `deinit`, which may resolve. The registry is empty afterwards, and may be used again.
    mutating func drain() -> [Record] {
        let drained = records  // Holds every value, so that `destroy()` releases none.
        reads.changeLettingGo()
        destroy()
        self = Registry(reads: unmanagedReads)  // The place keeps its reads.
        return drained
    }

    /// Empties the snapshot of the collection whose key space is `service`, if there is one: something of its
    /// registrations changes. A thread may have kept the snapshot as its answer for the collection, so the change
    /// waits for the readers that may still copy its values before letting it go.
    private mutating func forgetSnapshot(of service: ObjectIdentifier) {
        guard snapshots.count != 0, let forgotten = snapshots.removeValue(for: service) else { return }
        withExtendedLifetime(forgotten) { reads.changeLettingGo() }
    }
}

/// Swaps `value` for `new` and returns the old value.
func exchange<Value>(_ value: inout Value, with new: Value) -> Value {
    let old = value
    value = new
    return old
}
