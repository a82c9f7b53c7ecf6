/// A hash table from a service's `ObjectIdentifier` to a `Value`: open addressing, linear probing, a multiplicative
/// hash of the identifier's address, and storage that it allocates and frees itself.
///
/// Why not `Dictionary`, measured by the Benchmarks package's "02 singleton resolve" and "04 named resolve" and by
/// callgrind (`Benchmarks/count-instructions`): SipHash costs about 90 instructions a lookup, the largest single
/// cost of a cached singleton's resolve; and a dictionary is reference-counted storage, so the optimizer retains and
/// releases every registry it reads under the lock, and copies out every value it reads. This table is a trivial
/// value, two pointers and two counts, so reading it costs no reference counting, and values are read in place.
///
/// The price: it does not free its storage by itself. `HiveFamily` and `OverrideLayer` own every table they hold and
/// call ``destroy()`` exactly once, and never copy one for longer than a read.
struct ServiceTable<Value> {
    /// The key of each bucket, `nil` for a vacant one; or no storage at all while the table is empty and new.
    private var keys: UnsafeMutablePointer<ObjectIdentifier?>?
    /// The value of each occupied bucket, uninitialized in vacant ones; no storage while `keys` has none.
    private var values: UnsafeMutablePointer<Value>?
    private var capacity = 0
    private(set) var count = 0

    /// An empty table, which allocates nothing until the first value is added.
    init() {}

    /// Frees the storage and the values in it. The table must not be used afterwards.
    func destroy() {
        guard let keys, let values else { return }
        for index in 0..<capacity where keys[index] != nil { (values + index).deinitialize(count: 1) }
        keys.deallocate()
        values.deallocate()
    }

    /// The bucket of `service`, or `nil`.
    func index(of service: ObjectIdentifier) -> Int? {
        guard let keys else { return nil }
        let mask = capacity - 1
        var index = firstBucket(of: service)
        while let key = keys[index] {
            if key == service { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The value in the occupied bucket `index`, read and written in place.
    subscript(bucket index: Int) -> Value {
        unsafeAddress { UnsafePointer(values.unsafelyUnwrapped + index) }
        nonmutating unsafeMutableAddress { values.unsafelyUnwrapped + index }
    }

    /// Runs `body` on the value for `service`, adding one made by `empty` first if there is none.
    mutating func update<Result>(
        _ service: ObjectIdentifier,
        empty: () -> Value,
        _ body: (inout Value) -> Result
    ) -> Result {
        if let index = index(of: service) { return body(&self[bucket: index]) }
        // At most half full: at three quarters, the keys of the benchmarks' hive probed up to four buckets deep, and a
        // cached async resolve cost `Benchmarks/count-instructions 18` 472 instructions, not 439.
        if (count + 1) * 2 > capacity { grow() }
        let (keys, values) = (keys!, values!)
        var index = firstBucket(of: service)
        while keys[index] != nil { index = (index + 1) & (capacity - 1) }
        keys[index] = service
        (values + index).initialize(to: empty())
        count += 1
        return body(&values[index])
    }

    /// Removes the value for `service` and returns it.
    mutating func removeValue(for service: ObjectIdentifier) -> Value? {
        guard let keys, let values, var hole = index(of: service) else { return nil }
        let removed = (values + hole).move()
        keys[hole] = nil
        count -= 1
        // Backward-shift deletion: move later members of the probe run into the hole, so no tombstones are needed.
        let mask = capacity - 1
        var index = (hole + 1) & mask
        while let key = keys[index] {
            let first = firstBucket(of: key)
            if (index - first) & mask >= (index - hole) & mask {
                keys[hole] = key
                (values + hole).moveInitialize(from: values + index, count: 1)
                keys[index] = nil
                hole = index
            }
            index = (index + 1) & mask
        }
        return removed
    }

    /// A table of its own with the same contents; it must be destroyed too.
    func copy() -> ServiceTable {
        var copy = ServiceTable()
        guard let keys, let values else { return copy }
        copy.keys = .allocate(capacity: capacity)
        copy.keys!.initialize(from: keys, count: capacity)
        copy.values = .allocate(capacity: capacity)
        for index in 0..<capacity where keys[index] != nil { (copy.values! + index).initialize(to: values[index]) }
        (copy.capacity, copy.count) = (capacity, count)
        return copy
    }

    /// Calls `body` with every key, in no particular order.
    func forEachKey(_ body: (ObjectIdentifier) -> Void) {
        guard let keys else { return }
        for index in 0..<capacity { if let key = keys[index] { body(key) } }
    }

    /// Calls `body` with every value, in no particular order.
    func forEach(_ body: (Value) -> Void) {
        guard let keys, let values else { return }
        for index in 0..<capacity where keys[index] != nil { body(values[index]) }
    }

    private mutating func grow() {
        let (oldKeys, oldValues, oldCapacity) = (keys, values, capacity)
        capacity = max(8, capacity * 2)
        let keys = UnsafeMutablePointer<ObjectIdentifier?>.allocate(capacity: capacity)
        keys.initialize(repeating: nil, count: capacity)
        let values = UnsafeMutablePointer<Value>.allocate(capacity: capacity)
        for old in 0..<oldCapacity {
            guard let key = oldKeys?[old], let oldValues else { continue }
            var index = firstBucket(of: key)
            while keys[index] != nil { index = (index + 1) & (capacity - 1) }
            keys[index] = key
            (values + index).moveInitialize(from: oldValues + old, count: 1)
        }
        (self.keys, self.values) = (keys, values)
        oldKeys?.deallocate()
        oldValues?.deallocate()
    }

    /// The bucket where `service` belongs: a multiplicative hash of the identifier's address.
    private func firstBucket(of service: ObjectIdentifier) -> Int {
        Int(bitPattern: (UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (capacity - 1)
    }
}

// Sendable: a table is reached only through its owner, which guards it: a family's table through the family's lock, an
// override layer's table by never changing after the layer is made. Unchecked because the compiler can't see that: the
// keys and values live behind raw pointers, which it never proves `Sendable`; without the conformance, the family's
// state and the override layer don't compile.
extension ServiceTable: @unchecked Sendable where Value: Sendable {}
