/// The registrations of one hive, or of one override scope.
///
/// The unnamed, argument-free registrations, which are most resolves, live in a table keyed by the service's
/// `ObjectIdentifier` alone, so the hot path hashes one word, as a hand-written locator would.
struct Registry {
    private(set) var plain: [ObjectIdentifier: Entry] = [:]
    private(set) var variants: [RegistrationKey: Entry] = [:]

    @inline(__always)
    func entry(for key: RegistrationKey) -> Entry? {
        key.isPlain ? plain[key.service] : variants[key]
    }

    /// Stores `entry` under its key, replacing any entry there, and returns the replaced one.
    @discardableResult
    mutating func store(_ entry: Entry) -> Entry? {
        if entry.key.isPlain {
            return plain.updateValue(entry, forKey: entry.key.service)
        }
        return variants.updateValue(entry, forKey: entry.key)
    }

    /// Removes the entry stored under `key` and returns it.
    mutating func remove(_ key: RegistrationKey) -> Entry? {
        key.isPlain ? plain.removeValue(forKey: key.service) : variants.removeValue(forKey: key)
    }

    /// Every entry for the service and name, whatever its arguments. Used on error paths only.
    func entries(service: ObjectIdentifier, name: String?) -> [Entry] {
        var found: [Entry] = []
        if name == nil, let entry = plain[service] { found.append(entry) }
        for (key, entry) in variants where key.service == service && key.name == name {
            found.append(entry)
        }
        return found
    }

    /// All entries, in no particular order.
    var allEntries: [Entry] { Array(plain.values) + Array(variants.values) }

    var count: Int { plain.count + variants.count }
}
