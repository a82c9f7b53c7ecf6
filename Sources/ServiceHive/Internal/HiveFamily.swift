/// The lock and shared counters of a root hive and all of its descendants.
///
/// A child hive shares its parent's family, so one lock guards every registry in the hierarchy. A resolve that
/// falls back from a child to its parent takes that one lock once, and sees one consistent snapshot.
final class HiveFamily: @unchecked Sendable {
    // Sendable: `lock` guards `liveScopes`, `nextSequence`, every member hive's `HiveStorage.registry`, every
    // member entry's `Entry.slot` and `Entry.isRemoved`, and every override scope's `OverrideScope.instances`.
    let lock = Lock()

    /// How many override scopes on hives of this family are alive. While it is zero, a resolve never reads the
    /// task-local override stack, which costs about 25 ns. Guarded by `lock`.
    @exclusivity(unchecked) var liveScopes = 0

    /// The next registration's sequence number. Guarded by `lock`.
    @exclusivity(unchecked) var nextSequence: UInt64 = 0
}

/// The mutable state of one hive.
final class HiveStorage: @unchecked Sendable {
    // Sendable: `registry` is guarded by the owning hive's `HiveFamily.lock`.
    @exclusivity(unchecked) var registry = Registry()
}
