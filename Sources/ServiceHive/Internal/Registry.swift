/// The key a registration is stored under: the service type, its name and its argument types.
struct RegistrationKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let name: String?
    let arguments: ArgumentSignature?
    /// Whether the resolve that looks this key up returns the service typed as `Sendable`, so that it must refuse a
    /// registration made without knowing that its instances are. Not part of the key's identity.
    var requiresSendable = false

    /// Inlined, with the one below, into every public resolve: called instead, each resolve pays a call and a retain and
    /// release of the name (`Benchmarks/count-instructions 02`: 372 instructions, not 307).
    @inline(__always)
    init<Service>(
        _: Service.Type, name: String?, arguments: ArgumentSignature? = nil, requiresSendable: Bool = false
    ) {
        service = ObjectIdentifier(Service.self)
        self.name = name
        self.arguments = arguments
        self.requiresSendable = requiresSendable
    }

    /// The key of a resolve that returns `Service` typed as `Sendable`; inlined, as the one above.
    @inline(__always)
    init<Service: Sendable>(sendable _: Service.Type, name: String?) {
        self.init(Service.self, name: name, requiresSendable: true)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.service == rhs.service && lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(name)
        hasher.combine(arguments)
    }

    /// Whether this is the unnamed registration without arguments, which most resolves ask for.
    var isPlain: Bool { name == nil && arguments == nil }
}

/// The registrations of one hive, and the instances cached beside them.
///
/// They are grouped by service in a `ServiceTable`, so every lookup hashes one word. A service's unnamed registration
/// without arguments, which most resolves ask for, has a place of its own; its named and argument registrations are a
/// list, indexed once it grows past a few. Adding and removing a registration are amortized O(1), whatever the number
/// of registrations.
///
/// Like its table, a registry is freed by its owner, with ``drain()``, exactly once.
struct Registry {
    private var services = ServiceTable<Registrations>()

    /// The registrations of one service.
    struct Registrations {
        var plain: Record?
        /// In no particular order: listings sort by `Record.sequence`.
        var variants: [Record] = []
        /// Where each variant is in `variants`, once there are more than `indexThreshold`: below it, a scan costs less
        /// than hashing a name.
        var index: [VariantKey: Int]?
        /// The keys of this registry's forwards whose target is a registration of this service.
        var forwards: [RegistrationKey] = []

        static let indexThreshold = 8

        var isEmpty: Bool { plain == nil && variants.isEmpty && forwards.isEmpty }

        /// Inlined, so that `peek` reads the registrations in place: called, it takes a copy of them, and a named resolve
        /// costs 1,070 instructions, not 829 (`count-instructions 04`; 04b: 1,495, not 1,415). The optimizer stopped
        /// inlining it on its own when the module shrank, so the attribute says it.
        @inline(__always)
        func position(of key: RegistrationKey) -> Int? {
            if let index { return index[VariantKey(key)] }
            return variants.firstIndex { $0.entry.key == key }
        }

        mutating func insertVariant(_ record: Record) {
            variants.append(record)
            if index != nil {
                index?[VariantKey(record.entry.key)] = variants.count - 1
            } else if variants.count > Self.indexThreshold {
                index = Dictionary(uniqueKeysWithValues: variants.enumerated().map { (VariantKey($1.entry.key), $0) })
            }
        }

        /// Removes the variant at `position` by moving the last one into its place: O(1).
        mutating func removeVariant(at position: Int) -> Record {
            variants.swapAt(position, variants.count - 1)
            let removed = variants.removeLast()
            index?[VariantKey(removed.entry.key)] = nil
            if position < variants.count { index?[VariantKey(variants[position].entry.key)] = position }
            return removed
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

    /// What a lookup sees of the record under `key`: its entry and its slot, read in place and unretained, so valid
    /// only while the family lock is held. Copying the record out instead retains and releases all it holds
    /// (`Benchmarks/count-instructions 02`: 366 instructions that way, not 312, when measured). Inlined into the lookup:
    /// called, a named resolve's cost 1,074 instructions, not 832 (`count-instructions 04`).
    @inline(__always)
    func peek(_ key: RegistrationKey) -> Peek? {
        guard let bucket = services.index(of: key.service) else { return nil }
        if key.isPlain {
            guard let entry = services[bucket: bucket].plain?.entry else { return nil }
            return Peek(
                entry: .passUnretained(entry),
                instance: services[bucket: bucket].plain?.slot.instance.map(Unmanaged.passUnretained),
                construction: services[bucket: bucket].plain?.slot.construction.map(Unmanaged.passUnretained))
        }
        guard let position = services[bucket: bucket].position(of: key) else { return nil }
        return Peek(
            entry: .passUnretained(services[bucket: bucket].variants[position].entry),
            instance: services[bucket: bucket].variants[position].slot.instance.map(Unmanaged.passUnretained),
            construction: services[bucket: bucket].variants[position].slot.construction.map(Unmanaged.passUnretained))
    }

    /// Whether anything is registered under `key`.
    func contains(_ key: RegistrationKey) -> Bool { peek(key) != nil }

    /// Stores `record` under its entry's key. The caller has checked that the key is free, and that a forward's target
    /// is registered here.
    mutating func insert(_ record: Record) {
        let key = record.entry.key
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
        let removed = withRegistrations(key.service) { registrations -> Record? in
            if key.isPlain { return exchange(&registrations.plain, with: nil) }
            return registrations.position(of: key).map { registrations.removeVariant(at: $0) }
        }
        guard let removed = removed ?? nil else { return nil }
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
        return withRegistrations(key.service) { registrations -> Result? in
            if key.isPlain {
                guard registrations.plain?.entry === entry else { return nil }
                return body(&registrations.plain!.slot)
            }
            guard let position = registrations.position(of: key), registrations.variants[position].entry === entry
            else { return nil }
            return body(&registrations.variants[position].slot)
        } ?? nil
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

    /// Frees the registry and returns its records, for the caller to release after unlocking: releasing an instance
    /// runs its `deinit`, which may resolve. The registry is empty afterwards, and may be used again.
    mutating func drain() -> [Record] {
        let drained = records
        services.destroy()
        services = ServiceTable()
        return drained
    }
}

/// A record as a lookup sees it, unretained: valid only while the family lock is held.
struct Peek {
    let entry: Unmanaged<Entry>
    let instance: Unmanaged<Instance>?
    let construction: Unmanaged<Construction>?
}

/// Swaps `value` for `new` and returns the old value.
func exchange<Value>(_ value: inout Value, with new: Value) -> Value {
    let old = value
    value = new
    return old
}
