/// The registrations of one hive, or the overrides of one layer, and the instances cached beside them.
///
/// They are grouped by service in a `ServiceTable`, so every lookup hashes one word. A service's unnamed registration
/// without arguments, which most resolves ask for, has a place of its own; its named and argument registrations are
/// a list, indexed once it grows past a few, so registering thousands of names stays linear in debug builds too.
///
/// Like its table, a registry is freed by its owner, with ``drain()``, exactly once.
struct Registry {
    private var services = ServiceTable<Registrations>()

    /// The registrations of one service.
    struct Registrations {
        var plain: Record?
        var variants: [Record] = []
        /// Where each variant is in `variants`, once there are more than `indexThreshold`.
        var index: [VariantKey: Int]?

        static let indexThreshold = 8

        func position(of key: RegistrationKey) -> Int? {
            if let index { return index[VariantKey(key)] }
            return variants.firstIndex { $0.entry.key == key }
        }
    }

    /// What tells a service's variants apart.
    struct VariantKey: Hashable {
        let name: String?
        let arguments: ArgumentSignature?
        init(_ key: RegistrationKey) {
            name = key.name
            arguments = key.arguments
        }
    }

    /// The record stored under `key`.
    subscript(key: RegistrationKey) -> Record? {
        guard let bucket = services.index(of: key.service) else { return nil }
        if key.isPlain { return services[bucket: bucket].plain }
        return services[bucket: bucket].position(of: key).map { services[bucket: bucket].variants[$0] }
    }

    /// The entry registered under `key`.
    @inline(__always)
    func entry(for key: RegistrationKey) -> Entry? {
        guard let bucket = services.index(of: key.service) else { return nil }
        if key.isPlain { return services[bucket: bucket].plain?.entry }
        return services[bucket: bucket].position(of: key).map { services[bucket: bucket].variants[$0].entry }
    }

    /// Whether anything is registered under `key`.
    @inline(__always)
    func contains(_ key: RegistrationKey) -> Bool {
        guard let bucket = services.index(of: key.service) else { return false }
        if key.isPlain { return services[bucket: bucket].plain != nil }
        return services[bucket: bucket].position(of: key) != nil
    }

    /// The common case of a lookup, read in place: a transient's entry, or a singleton's cached instance. `nil`
    /// when this registry has nothing under `key`.
    @inline(__always)
    func quickLookUp(_ key: RegistrationKey, argumentsMatch: ([Any.Type]) -> Bool, async: Bool) -> QuickLookup? {
        guard let bucket = services.index(of: key.service) else { return nil }
        if key.isPlain {
            // Read in place, field by field: copying the record out would retain and release all it holds. Calling
            // `Record.quickLookUp` on `plain` instead of this switch, with a case added there for a cached forward,
            // copies the record: `Benchmarks/count-instructions 02` counted 366 instructions that way, not 312, and
            // 15 counted 355, not 304.
            if key.requiresSendable, services[bucket: bucket].plain?.entry.unsureSendable == true {
                return .detailed(.unknown)
            }
            switch services[bucket: bucket].plain?.entry.lifetime {
            case nil:
                return nil
            case .transient?:
                return .transient(services[bucket: bucket].plain!.entry)
            case .shared?:
                guard let instance = services[bucket: bucket].plain?.slot.instance else {
                    return .detailed(.unknown)
                }
                return .cached(.passUnretained(instance))
            case .graph?:
                return .graph(services[bucket: bucket].plain!.entry, depth: 0)
            case .forward?:
                if let converted = services[bucket: bucket].plain?.slot.instance {
                    return .forwardedCached(.passUnretained(converted))
                }
                return forwarded(services[bucket: bucket].plain!.entry)
            case .async? where async:
                guard let instance = services[bucket: bucket].plain?.slot.instance else {
                    return .detailed(.unknown)
                }
                return .cached(.passUnretained(instance))
            case .weak?, .async?:
                return .detailed(.unknown)
            }
        }
        guard let position = services[bucket: bucket].position(of: key) else { return nil }
        // In place, as above.
        guard key.arguments == nil || argumentsMatch(services[bucket: bucket].variants[position].entry.argumentTypes),
            !(key.requiresSendable && services[bucket: bucket].variants[position].entry.unsureSendable)
        else { return .detailed(.unknown) }
        return services[bucket: bucket].variants[position].quickLookUp(async: async)
    }

    /// A forwarded registration whose target, in this registry, has its instance cached: both, for the quick path to
    /// convert, and to cache with `cacheForwarded`.
    private func forwarded(_ entry: Entry) -> QuickLookup {
        guard let target = entry.target, let bucket = services.index(of: target.service), target.isPlain,
            services[bucket: bucket].plain?.entry.lifetime == .shared,
            let instance = services[bucket: bucket].plain?.slot.instance
        else { return .detailed(.unknown) }
        return .forwarded(entry, instance)
    }

    /// Stores `record` under its entry's key. The caller has checked that the key is free.
    mutating func insert(_ record: Record) {
        let key = record.entry.key
        services.update(key.service, empty: { Registrations() }) { registrations in
            if key.isPlain {
                registrations.plain = record
                return
            }
            registrations.variants.append(record)
            if registrations.index != nil {
                registrations.index?[VariantKey(key)] = registrations.variants.count - 1
            } else if registrations.variants.count > Registrations.indexThreshold {
                registrations.index = Dictionary(
                    uniqueKeysWithValues: registrations.variants.enumerated().map { (VariantKey($1.entry.key), $0) })
            }
        }
    }

    /// Removes the record under `key` and returns it, for the caller to release after unlocking.
    mutating func remove(_ key: RegistrationKey) -> Record? {
        guard services.index(of: key.service) != nil else { return nil }
        let removed = services.update(key.service, empty: { Registrations() }) { registrations -> Record? in
            if key.isPlain { return exchange(&registrations.plain, with: nil) }
            guard let position = registrations.position(of: key) else { return nil }
            let removed = registrations.variants.remove(at: position)
            if registrations.index != nil {
                registrations.index = Dictionary(
                    uniqueKeysWithValues: registrations.variants.enumerated().map { (VariantKey($1.entry.key), $0) })
            }
            return removed
        }
        if let bucket = services.index(of: key.service), services[bucket: bucket].plain == nil,
            services[bucket: bucket].variants.isEmpty
        {
            _ = services.removeValue(for: key.service)
        }
        return removed
    }

    /// Runs `body` on the slot of `entry`'s record; `nil` when `entry` is no longer the one registered.
    mutating func withSlot<Result>(of entry: Entry, _ body: (inout Slot) -> Result) -> Result? {
        let key = entry.key
        guard services.index(of: key.service) != nil else { return nil }
        return services.update(key.service, empty: { Registrations() }) { registrations -> Result? in
            if key.isPlain {
                guard registrations.plain?.entry === entry else { return nil }
                return body(&registrations.plain!.slot)
            }
            guard let position = registrations.position(of: key), registrations.variants[position].entry === entry
            else { return nil }
            return body(&registrations.variants[position].slot)
        }
    }

    /// Every record, in no particular order.
    var records: [Record] {
        var records: [Record] = []
        records.reserveCapacity(services.count)
        services.forEach { registrations in
            if let plain = registrations.plain { records.append(plain) }
            records += registrations.variants
        }
        return records
    }

    /// Every record for `service`, whatever its name and arguments. Used on error paths.
    func records(of service: ObjectIdentifier) -> [Record] {
        guard let bucket = services.index(of: service) else { return [] }
        return (services[bucket: bucket].plain.map { [$0] } ?? []) + services[bucket: bucket].variants
    }

    var isEmpty: Bool { services.count == 0 }

    /// Frees the registry and returns its records, for the caller to release after unlocking: releasing an instance
    /// runs its `deinit`, which may resolve. The registry is empty afterwards, and may be used again.
    mutating func drain() -> [Record] {
        let drained = records
        services.destroy()
        services = ServiceTable()
        return drained
    }
}

/// Swaps `value` for `new` and returns the old value.
@inline(__always)
func exchange<Value>(_ value: inout Value, with new: Value) -> Value {
    let old = value
    value = new
    return old
}
