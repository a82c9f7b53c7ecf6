/// One `withOverrides` scope: the overrides it declares for one hive, and the shared instances built inside it.
///
/// Scopes form a stack in the task-local ``current``, innermost first. Child tasks inherit it; `Task.detached` does
/// not. A scope lives as long as its operation and any task that inherited it, and while it lives it counts in its
/// family's `FamilyCounters.liveScopes`, which is what tells the resolution path to read the task-local at all.
final class OverrideScope: @unchecked Sendable {
    // Sendable: `hive`, `family`, `outer` and `registry` are immutable; `instances` is guarded by `family.lock`.

    /// The active scopes of the current task, innermost first.
    @TaskLocal static var current: OverrideScope?

    /// The hive whose resolves this scope overrides, along with the resolves of its descendants that fall back
    /// to it.
    let hive: ServiceHive
    let family: HiveFamily
    /// The scope that was active when this one began, for any hive.
    let outer: OverrideScope?
    /// The overrides, immutable once the scope begins.
    let registry: Registry
    /// The `.singleton` and `.weak` instances built inside this scope, keyed by the identity of their entry.
    /// Guarded by `family.lock`.
    @exclusivity(unchecked) var instances: [ObjectIdentifier: ScopedInstance] = [:]
    /// What unnamed, argument-free keys resolved to in this scope, by the hive that asked, so that a repeated
    /// resolve inside a scope costs one lookup instead of a walk through the scopes and registries. A memo is
    /// valid while its generation equals the family's. The references are unretained, so reading one costs no
    /// reference counting: `memos` owns every memo ever written here, until the scope ends. Guarded by
    /// `family.lock`.
    @exclusivity(unchecked) var memo: [MemoKey: Unmanaged<Memo>] = [:]
    /// Owns the memos, including replaced ones, so that none is released while the lock is held. Guarded by
    /// `family.lock`.
    @exclusivity(unchecked) var memos: [Memo] = []
    /// A direct-mapped cache in front of `memo`: a hit costs two comparisons instead of hashing. Guarded by
    /// `family.lock`.
    private let recent: UnsafeMutablePointer<RecentMemo>

    init(hive: ServiceHive, overrides: [Entry], outer: OverrideScope?) {
        self.hive = hive
        self.family = hive.family
        self.outer = outer
        self.registry = Registry(overrides)
        recent = .allocate(capacity: RecentMemo.slots)
        recent.initialize(repeating: RecentMemo(), count: RecentMemo.slots)
        family.lock.withLock { family.counters.pointer.pointee.liveScopes += 1 }
    }

    deinit {
        family.lock.withLock { family.counters.pointer.pointee.liveScopes -= 1 }
        recent.deallocate()
        // `instances` is released after this body, outside the lock, which matters: their `deinit` may resolve.
    }

    /// The override for `key` that this scope or an outer one declares for `hive`. Called with the lock held.
    func override(for key: RegistrationKey, on hive: ServiceHive) -> Unmanaged<Entry>? {
        var scope: OverrideScope? = self
        while let current = scope {
            if current.hive === hive, let entry = current.registry.entry(for: key) { return entry }
            scope = current.outer
        }
        return nil
    }

    /// The memo of `key`, if this scope has one. Called with `family.lock` held.
    @inline(__always)
    func memo(for key: MemoKey) -> Unmanaged<Memo>? {
        let slot = recent + key.slot
        if slot.pointee.key == key { return slot.pointee.memo }
        guard let memo = memo[key] else { return nil }
        slot.pointee = RecentMemo(key: key, memo: memo)
        return memo
    }

    /// Remembers `memo` for `key`, replacing any older one. Called with `family.lock` held.
    func remember(_ memo: Memo, for key: MemoKey) {
        memos.append(memo)
        self.memo[key] = .passUnretained(memo)
        (recent + key.slot).pointee = RecentMemo(key: key, memo: .passUnretained(memo))
    }

    /// The innermost scope in this stack that belongs to `family`, whose lock guards its memo.
    @inline(__always)
    func innermost(in family: HiveFamily) -> OverrideScope? {
        var scope: OverrideScope? = self
        while let current = scope {
            if current.family === family { return current }
            scope = current.outer
        }
        return nil
    }

    /// The innermost scope in this stack whose overrides a hive's view sees: one for `hive` itself or for one of
    /// its ancestors. Called with the lock held.
    func innermost(seenBy hive: ServiceHive) -> OverrideScope? {
        var scope: OverrideScope? = self
        while let current = scope {
            if hive.isSelfOrDescendant(of: current.hive) { return current }
            scope = current.outer
        }
        return nil
    }
}

/// The key of an override scope's memo: the hive that asked, and the service.
struct MemoKey: Hashable {
    let view: ObjectIdentifier
    let service: ObjectIdentifier

    /// One word into the hasher, as for a plain `ObjectIdentifier` key: the two addresses mixed.
    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt(bitPattern: view) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: service))
    }
}

extension MemoKey {
    /// The key's slot in an override scope's direct-mapped cache of recent memos.
    @inline(__always)
    var slot: Int {
        let mixed = (UInt(bitPattern: view) ^ UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15) >> 58
        return Int(mixed) & (RecentMemo.slots - 1)
    }
}

/// One slot of an override scope's direct-mapped cache of recent memos. An empty slot's key matches no real key.
struct RecentMemo {
    static let slots = 16
    var key = MemoKey(view: ObjectIdentifier(RecentMemo.Empty.self), service: ObjectIdentifier(RecentMemo.Empty.self))
    var memo: Unmanaged<Memo>?

    /// A type no service is: it marks empty slots.
    private enum Empty {}
}

/// What a key resolved to in an override scope, as of one family generation.
///
/// It holds the entry, and the asking hive so that the hive's identifier in the key cannot be reused while the
/// memo lives. `box` is set once a `.singleton` built in this same scope is cached, and then a resolve is one lookup.
final class Memo {
    let generation: UInt64
    let entry: Entry
    let view: ServiceHive
    let box: AnyObject?

    init(generation: UInt64, entry: Entry, view: ServiceHive, box: AnyObject?) {
        self.generation = generation
        self.entry = entry
        self.view = view
        self.box = box
    }
}

/// A shared instance cached in an override scope. It keeps its entry alive so that the entry's address, the key,
/// cannot be reused by another registration while the instance is cached.
struct ScopedInstance {
    let entry: Entry
    var slot: Slot
}
