/// The registrations of one hive, or of one override scope.
///
/// The unnamed, argument-free registrations, which are most resolves, live in a table keyed by the service's
/// `ObjectIdentifier` alone, so the hot path hashes one word, as a hand-written locator would.
///
/// The tables hold their entries as `Unmanaged` references that the registry retains itself: a lookup then hands
/// out a borrowed reference with no retain-release pair. The registry is `~Copyable`, so exactly one owner
/// releases those references, in `deinit`; `store` and `remove` keep the counts balanced.
struct Registry: ~Copyable {
    private var plain: [ObjectIdentifier: Unmanaged<Entry>] = [:]
    private var variants: [RegistrationKey: Unmanaged<Entry>] = [:]

    init() {}

    /// A registry holding `entries`; for keys that repeat, the last entry wins.
    init(_ entries: [Entry]) {
        for entry in entries {
            let replaced = store(entry)
            withExtendedLifetime(replaced) {}
        }
    }

    deinit {
        for entry in plain.values { entry.release() }
        for entry in variants.values { entry.release() }
    }

    /// The entry stored under `key`, borrowed: valid while the family lock is held and the entry is not removed.
    @inline(__always)
    func entry(for key: RegistrationKey) -> Unmanaged<Entry>? {
        key.isPlain ? plain[key.service] : variants[key]
    }

    /// Stores `entry` under its key and returns the entry it replaced, if any, which the caller releases after
    /// unlocking.
    mutating func store(_ entry: Entry) -> Entry? {
        let retained = Unmanaged.passRetained(entry)
        let replaced =
            entry.key.isPlain
            ? plain.updateValue(retained, forKey: entry.key.service)
            : variants.updateValue(retained, forKey: entry.key)
        return replaced?.takeRetainedValue()
    }

    /// Removes the entry stored under `key` and returns it, for the caller to release after unlocking.
    mutating func remove(_ key: RegistrationKey) -> Entry? {
        let removed = key.isPlain ? plain.removeValue(forKey: key.service) : variants.removeValue(forKey: key)
        return removed?.takeRetainedValue()
    }

    /// Every entry for the service and name, whatever its arguments. Used on error paths only.
    func entries(service: ObjectIdentifier, name: String?) -> [Entry] {
        var found: [Entry] = []
        if name == nil, let entry = plain[service] { found.append(entry.takeUnretainedValue()) }
        for (key, entry) in variants where key.service == service && key.name == name {
            found.append(entry.takeUnretainedValue())
        }
        return found
    }

    /// All entries, in no particular order.
    var allEntries: [Entry] {
        plain.values.map { $0.takeUnretainedValue() } + variants.values.map { $0.takeUnretainedValue() }
    }

    /// The number of registrations.
    var count: Int { plain.count + variants.count }
}
