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
    private var variants: [ObjectIdentifier: Variants] = [:]

    /// The named and argument-taking registrations of one service: a short list, searched in order, until it
    /// grows past `Variants.listLimit`; then a dictionary, so that a service with thousands of names still
    /// resolves in constant time.
    private enum Variants {
        case list([Variant])
        case table([VariantKey: Unmanaged<Entry>])

        static let listLimit = 8

        func entry(for key: VariantKey) -> Unmanaged<Entry>? {
            switch self {
            case .list(let list): return list.first { $0.key == key }?.entry
            case .table(let table): return table[key]
            }
        }

        /// Stores `entry` under `key` and returns the entry it replaced.
        mutating func store(_ entry: Unmanaged<Entry>, for key: VariantKey) -> Unmanaged<Entry>? {
            switch self {
            case .list(var list):
                if let index = list.firstIndex(where: { $0.key == key }) {
                    let replaced = list[index].entry
                    list[index] = Variant(key: key, entry: entry)
                    self = .list(list)
                    return replaced
                }
                list.append(Variant(key: key, entry: entry))
                self =
                    list.count > Self.listLimit
                    ? .table(Dictionary(uniqueKeysWithValues: list.map { ($0.key, $0.entry) })) : .list(list)
                return nil
            case .table(var table):
                let replaced = table.updateValue(entry, forKey: key)
                self = .table(table)
                return replaced
            }
        }

        /// Removes the entry under `key` and returns it.
        mutating func remove(_ key: VariantKey) -> Unmanaged<Entry>? {
            switch self {
            case .list(var list):
                guard let index = list.firstIndex(where: { $0.key == key }) else { return nil }
                let removed = list.remove(at: index).entry
                self = .list(list)
                return removed
            case .table(var table):
                let removed = table.removeValue(forKey: key)
                self = .table(table)
                return removed
            }
        }

        var all: [(key: VariantKey, entry: Unmanaged<Entry>)] {
            switch self {
            case .list(let list): return list.map { ($0.key, $0.entry) }
            case .table(let table): return table.map { ($0.key, $0.value) }
            }
        }

        var isEmpty: Bool {
            switch self {
            case .list(let list): return list.isEmpty
            case .table(let table): return table.isEmpty
            }
        }
    }

    /// What tells a service's variants apart.
    private struct VariantKey: Hashable {
        let name: String?
        let arguments: ArgumentSignature?
    }

    private struct Variant {
        let key: VariantKey
        let entry: Unmanaged<Entry>
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
        for variants in variants.values {
            for variant in variants.all { variant.entry.release() }
        }
    }

    /// The entry stored under `key`, borrowed: valid while the family lock is held and the entry is not removed.
    @inline(__always)
    func entry(for key: RegistrationKey) -> Unmanaged<Entry>? {
        if key.isPlain { return plain[key.service] }
        return variants[key.service]?.entry(for: VariantKey(name: key.name, arguments: key.arguments))
    }

    /// Stores `entry` under its key and returns the entry it replaced, if any, which the caller releases after
    /// unlocking.
    mutating func store(_ entry: Entry) -> Entry? {
        let key = entry.key
        let retained = Unmanaged.passRetained(entry)
        if key.isPlain {
            return plain.updateValue(retained, forKey: key.service)?.takeRetainedValue()
        }
        let variantKey = VariantKey(name: key.name, arguments: key.arguments)
        return variants[key.service, default: .list([])].store(retained, for: variantKey)?.takeRetainedValue()
    }

    /// Removes the entry stored under `key` and returns it, for the caller to release after unlocking.
    mutating func remove(_ key: RegistrationKey) -> Entry? {
        if key.isPlain { return plain.removeValue(forKey: key.service)?.takeRetainedValue() }
        let removed = variants[key.service]?.remove(VariantKey(name: key.name, arguments: key.arguments))
        if variants[key.service]?.isEmpty == true { variants[key.service] = nil }
        return removed?.takeRetainedValue()
    }

    /// Every entry for the service and name, whatever its arguments. Used on error paths only.
    func entries(service: ObjectIdentifier, name: String?) -> [Entry] {
        var found: [Entry] = []
        if name == nil, let entry = plain[service] { found.append(entry.takeUnretainedValue()) }
        for variant in variants[service]?.all ?? [] where variant.key.name == name {
            found.append(variant.entry.takeUnretainedValue())
        }
        return found
    }

    /// All entries, in no particular order.
    var allEntries: [Entry] {
        plain.values.map { $0.takeUnretainedValue() }
            + variants.values.flatMap { $0.all.map { $0.entry.takeUnretainedValue() } }
    }
}
