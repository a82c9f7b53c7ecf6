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
    var lookups: Set<Dependency> = []
    /// Whether any lookup searched another family than the instance's own. Such an instance may be affected by an
    /// override layer that its own family does not count, so finding it always checks the layer stack.
    private(set) var crossesFamilies = false

    static let none = Dependencies()

    var isEmpty: Bool { lookups.isEmpty }

    init(lookups: Set<Dependency> = []) {
        self.lookups = lookups
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
