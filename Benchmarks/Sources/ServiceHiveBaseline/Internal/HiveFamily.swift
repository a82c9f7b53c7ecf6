/// The lock and shared counters of a root hive and all of its descendants.
///
/// A child hive shares its parent's family, so one lock guards every registry in the hierarchy. A resolve that
/// falls back from a child to its parent takes that one lock once, and sees one consistent snapshot.
///
/// The family owns its lock and counters; every member hive keeps the family alive and copies the two pointers
/// into its `HiveState`.
final class HiveFamily: Sendable {
    /// Guards `counters`, every member hive's registry, every member entry's `Entry.slot` and `Entry.isRemoved`,
    /// and every override scope's `OverrideScope.instances`.
    let lock = Lock.allocate()
    /// Guarded by `lock`.
    let counters: FamilyCounters.Pointer

    init() {
        let pointer = UnsafeMutablePointer<FamilyCounters>.allocate(capacity: 1)
        pointer.initialize(to: FamilyCounters())
        counters = FamilyCounters.Pointer(pointer)
    }

    deinit {
        counters.pointer.deinitialize(count: 1)
        counters.pointer.deallocate()
        lock.deallocate()
    }
}

/// The counters a hive family shares. Guarded by the family's lock.
struct FamilyCounters {
    /// How many override scopes on hives of this family are alive. While it is zero, a resolve never reads the
    /// task-local override stack, which costs about 25 ns.
    var liveScopes = 0
    /// The next registration's sequence number.
    var nextSequence: UInt64 = 0
    /// Bumped by every registration and removal in the family, so that an override scope's memo of what a key
    /// resolves to can tell when it is stale.
    var generation: UInt64 = 0

    /// A pointer to the counters.
    struct Pointer: @unchecked Sendable {
        // Sendable: the pointee is guarded by the family's lock; the pointer never changes.
        let pointer: UnsafeMutablePointer<FamilyCounters>
        init(_ pointer: UnsafeMutablePointer<FamilyCounters>) { self.pointer = pointer }
    }
}

/// What a hive's hot path touches, held inline in the hive so that reaching it costs no reference counting.
struct HiveState: @unchecked Sendable {
    // Sendable: `counters` and `registry` are guarded by `lock`, the family's lock; the pointers never change. The
    // family owns `lock` and `counters`; the hive owns `registry` and frees it in its deinit.
    let lock: Lock
    let counters: UnsafeMutablePointer<FamilyCounters>
    let registry: UnsafeMutablePointer<Registry>

    init(family: HiveFamily) {
        lock = family.lock
        counters = family.counters.pointer
        registry = .allocate(capacity: 1)
        registry.initialize(to: Registry())
    }
}
