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

    init(hive: ServiceHive, overrides: [Entry], outer: OverrideScope?) {
        self.hive = hive
        self.family = hive.family
        self.outer = outer
        self.registry = Registry(overrides)
        family.lock.withLock { family.counters.pointer.pointee.liveScopes += 1 }
    }

    deinit {
        family.lock.withLock { family.counters.pointer.pointee.liveScopes -= 1 }
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

/// A shared instance cached in an override scope. It keeps its entry alive so that the entry's address, the key,
/// cannot be reused by another registration while the instance is cached.
struct ScopedInstance {
    let entry: Entry
    var slot: Slot
}
