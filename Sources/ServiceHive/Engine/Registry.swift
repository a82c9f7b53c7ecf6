/// One hive's registrations, in its family's state.
struct HiveState {
    /// The serial of the hive that holds this place, or 0 while the place is free.
    var serial: UInt64
    var registry = Registry()

    /// Whether this is the place of the live hive `id`: a released hive's place has serial 0, or another hive's.
    func isLive(_ id: HiveID) -> Bool { serial == id.serial }
}

/// The registrations of one hive, and the instances cached beside them.
///
/// They are grouped by service in a `ServiceTable`, so every lookup hashes one word. A service's unnamed registration
/// without arguments, which most resolves ask for, has a place of its own; its named and argument registrations are a
/// list, indexed once it grows past a few. Adding and removing a registration are amortized O(1), whatever the number
/// of registrations.
///
/// Like its table, a registry is freed by its owner exactly once: with `destroy()`, or emptied with `drain()`.
struct Registry {
    /// What a resolve reads of this registry without the lock; every change below that can make a kept answer wrong
    /// changes its stamp (`Registry+Changes.swift`). Kept for the family's lifetime, whichever hive holds the place,
    /// and released by `HiveFamily.deinit`.
    ///
    /// Unmanaged, so that a registry, and the `HiveState` that holds it, stay trivial to copy: with a strong reference,
    /// a lookup copied the hive's state with a retain and a release, and a named transient's resolve cost 990
    /// instructions, not 832 (`Benchmarks/count-instructions 04`).
    let unmanagedReads: Unmanaged<HiveReads>
    var reads: HiveReads { unmanagedReads.takeUnretainedValue() }
    /// The registrations by service. Read here; changed only in `Registry+Changes.swift`, with the family lock held.
    var services = ServiceTable<Registrations>()
    /// The values of the contributions to a collection, by the collection's key space, made by the first resolve of the
    /// collection that found them all cached where it could use them, and returned as they are by the next ones, until
    /// anything of the collection's registrations changes: each change empties it (`Registry+Changes.swift`).
    /// `Benchmarks/count-instructions 28`: 411 instructions a resolve of 10 contributions, where copying their values
    /// each time cost 2,117.
    ///
    /// A table of its own, beside `services`: a field more in each of their `Registrations` made the lookup of every
    /// resolve longer (`count-instructions 02`: 310 instructions, not 307). Emptied with the family lock held, and never
    /// the last to hold a value: while a snapshot is there, each of its values is held by an instance in a slot, which
    /// a change hands out to be released after unlocking.
    var snapshots = ServiceTable<CollectionSnapshot>()

    /// An empty registry, which reads `reads`: new ones for a new place, the place's own for one that a released
    /// hive's registry leaves (`moveOut()`).
    init(reads: Unmanaged<HiveReads> = .passRetained(HiveReads())) {
        unmanagedReads = reads
    }

    /// The registrations of one service.
    struct Registrations {
        var plain: Record?
        /// In no particular order, listings sort by `Record.sequence`; except a collection's contributions, which are
        /// kept in the order of their sequence, the order in which a resolve of the collection returns them.
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
            if record.entry.isContribution, let last = variants.last, last.sequence > record.sequence {
                // A contribution restored by a failed install's rollback goes back to its place in the order.
                let position = variants.firstIndex { $0.sequence > record.sequence } ?? variants.endIndex
                variants.insert(record, at: position)
                reindex(from: position)
                return
            }
            variants.append(record)
            if index != nil {
                index?[VariantKey(record.entry.key)] = variants.count - 1
            } else if variants.count > Self.indexThreshold {
                index = Dictionary(uniqueKeysWithValues: variants.enumerated().map { (VariantKey($1.entry.key), $0) })
            }
        }

        /// Removes the variant at `position` by moving the last one into its place: O(1). A contribution is removed in
        /// place instead, so that the others keep their order: O(n) in the contributions to its collection.
        mutating func removeVariant(at position: Int) -> Record {
            if variants[position].entry.isContribution {
                let removed = variants.remove(at: position)
                index?[VariantKey(removed.entry.key)] = nil
                reindex(from: position)
                return removed
            }
            variants.swapAt(position, variants.count - 1)
            let removed = variants.removeLast()
            index?[VariantKey(removed.entry.key)] = nil
            if position < variants.count { index?[VariantKey(variants[position].entry.key)] = position }
            return removed
        }

        /// Brings the index of the variants from `position` on up to date, after they moved.
        private mutating func reindex(from position: Int) {
            guard index != nil else {
                if variants.count > Self.indexThreshold {
                    index = Dictionary(
                        uniqueKeysWithValues: variants.enumerated().map { (VariantKey($1.entry.key), $0) })
                }
                return
            }
            for moved in position..<variants.count { index?[VariantKey(variants[moved].entry.key)] = moved }
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
                instance: services[bucket: bucket].plain?.slot.instance.map(Unmanaged.passUnretained))
        }
        guard let position = services[bucket: bucket].position(of: key) else { return nil }
        return Peek(
            entry: .passUnretained(services[bucket: bucket].variants[position].entry),
            instance: services[bucket: bucket].variants[position].slot.instance.map(Unmanaged.passUnretained))
    }

    /// Whether anything is registered under `key`.
    func contains(_ key: RegistrationKey) -> Bool { peek(key) != nil }

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
}

/// A record as a lookup sees it, unretained: valid only while the family lock is held.
struct Peek {
    let entry: Unmanaged<Entry>
    let instance: Unmanaged<Instance>?
}
