/// One lookup that the construction of a shared instance made, directly or through any chain of factories.
///
/// It records enough to answer, later and without any lock, whether an override layer would have answered the
/// lookup differently: the layer's hive must be one of the hives `searched`, which are the asking hive and its
/// ancestors up to the one whose registration answered, because a layer's overrides for a hive are consulted just
/// before that hive's own registrations.
struct Dependency: Hashable, Sendable {
    /// The hive family that was searched.
    let family: ObjectIdentifier
    let key: RegistrationKey
    /// The hives searched, nearest first, up to and including the one that answered; all of them when none did.
    let searched: Lineage
    /// The registration that answered, or `nil` when none did: a conditional dependency, or a caught failure.
    let entry: Entry?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.family == rhs.family && lhs.key == rhs.key && lhs.searched == rhs.searched && lhs.entry === rhs.entry
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(key)
        hasher.combine(entry.map(ObjectIdentifier.init))
    }
}

/// What a shared instance was built from: every lookup of its construction, flattened through every chain.
struct Dependencies: Sendable {
    let lookups: Set<Dependency>
    /// The services looked up, as a set of bits: a service's bit is `ServiceMask.bit(of:)`. A layer that overrides
    /// none of them can own nothing built from these lookups, which it tells without reading them.
    let services: UInt64
    /// Whether any lookup searched another family than the instance's own. Such an instance may be affected by an
    /// override layer that its own family does not count, so finding it always checks the layer stack.
    private(set) var crossesFamilies = false

    static let none = Dependencies()

    var isEmpty: Bool { lookups.isEmpty }

    init(lookups: Set<Dependency> = []) {
        self.lookups = lookups
        services = lookups.reduce(0) { $0 | ServiceMask.bit(of: $1.key.service) }
    }

    /// These dependencies, for an instance of the family `home`.
    func sealed(home: ObjectIdentifier) -> Dependencies {
        var sealed = self
        sealed.crossesFamilies = lookups.contains { $0.family != home }
        return sealed
    }

    /// Whether any lookup was answered by one of `entries`.
    func uses(any entries: Set<ObjectIdentifier>) -> Bool {
        lookups.contains { $0.entry.map { entries.contains(ObjectIdentifier($0)) } ?? false }
    }
}

/// Sets of services as the 64 bits of a word: a service sets the bit its identifier hashes to. Two sets with no bit in
/// common share no service; two with one may, as two services may share a bit.
enum ServiceMask {
    /// The bit of `service`: a multiplicative hash of its identifier's address, as `ServiceTable` hashes it.
    static func bit(of service: ObjectIdentifier) -> UInt64 {
        1 << ((UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}
