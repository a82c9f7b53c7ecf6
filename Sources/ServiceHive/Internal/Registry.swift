/// The registrations of one hive, or of one override scope.
///
/// The unnamed, argument-free registrations, which are most resolves, live in a table keyed by the service's
/// `ObjectIdentifier` alone, so the hot path hashes one word, as a hand-written locator would. Named and argument
/// variants are kept in a short list per service, so finding one also hashes one word, then compares names.
///
/// The tables hold their entries as `Unmanaged` references that the registry retains itself: a lookup then hands
/// out a borrowed reference with no retain-release pair. The registry is `~Copyable`, so exactly one owner
/// releases those references, in `deinit`; `store` and `remove` keep the counts balanced.
struct Registry: ~Copyable {
    private var plain: [ObjectIdentifier: Unmanaged<Entry>] = [:]
    private var variants: [ObjectIdentifier: [Variant]] = [:]

    /// A named or argument-taking registration of a service.
    private struct Variant {
        let name: String?
        let arguments: ArgumentSignature?
        let entry: Unmanaged<Entry>

        func matches(_ key: RegistrationKey) -> Bool { name == key.name && arguments == key.arguments }
    }

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
        for list in variants.values {
            for variant in list { variant.entry.release() }
        }
    }

    /// The entry stored under `key`, borrowed: valid while the family lock is held and the entry is not removed.
    @inline(__always)
    func entry(for key: RegistrationKey) -> Unmanaged<Entry>? {
        if key.isPlain { return plain[key.service] }
        return variants[key.service]?.first { $0.matches(key) }?.entry
    }

    /// Stores `entry` under its key and returns the entry it replaced, if any, which the caller releases after
    /// unlocking.
    mutating func store(_ entry: Entry) -> Entry? {
        let key = entry.key
        let retained = Unmanaged.passRetained(entry)
        if key.isPlain {
            return plain.updateValue(retained, forKey: key.service)?.takeRetainedValue()
        }
        let variant = Variant(name: key.name, arguments: key.arguments, entry: retained)
        if let index = variants[key.service]?.firstIndex(where: { $0.matches(key) }) {
            let replaced = variants[key.service]![index].entry
            variants[key.service]![index] = variant
            return replaced.takeRetainedValue()
        }
        variants[key.service, default: []].append(variant)
        return nil
    }

    /// Removes the entry stored under `key` and returns it, for the caller to release after unlocking.
    mutating func remove(_ key: RegistrationKey) -> Entry? {
        if key.isPlain { return plain.removeValue(forKey: key.service)?.takeRetainedValue() }
        guard let index = variants[key.service]?.firstIndex(where: { $0.matches(key) }) else { return nil }
        let removed = variants[key.service]!.remove(at: index).entry
        if variants[key.service]!.isEmpty { variants[key.service] = nil }
        return removed.takeRetainedValue()
    }

    /// Every entry for the service and name, whatever its arguments. Used on error paths only.
    func entries(service: ObjectIdentifier, name: String?) -> [Entry] {
        var found: [Entry] = []
        if name == nil, let entry = plain[service] { found.append(entry.takeUnretainedValue()) }
        for variant in variants[service] ?? [] where variant.name == name {
            found.append(variant.entry.takeUnretainedValue())
        }
        return found
    }

    /// All entries, in no particular order.
    var allEntries: [Entry] {
        plain.values.map { $0.takeUnretainedValue() }
            + variants.values.flatMap { $0.map { $0.entry.takeUnretainedValue() } }
    }

    /// The number of registrations.
    var count: Int { plain.count + variants.values.reduce(0) { $0 + $1.count } }
}
