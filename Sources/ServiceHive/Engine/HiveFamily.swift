/// A hive's identity within its family: its index in `HiveFamily.hives`, and a serial number that tells it apart
/// from a later hive that reuses the index.
struct HiveID: Hashable, Sendable {
    let index: Int
    let serial: UInt64
}

/// A hive and its ancestors, nearest first: the order in which a resolve searches them. Immutable, so the resolution
/// path reads it without a lock, and slices of it name the hives a lookup searched.
typealias Lineage = ArraySlice<HiveID>

/// Everything the lock of one hive family guards. A family is a root hive and all its descendants; they share one
/// `Locked<HiveFamily>`, so a resolve that falls back from a child to its parent takes one lock, once, and sees one
/// consistent state.
///
/// The lock guards, and only it:
/// - `hives`: every member hive's registrations and the instances cached beside them;
/// - `modules`: every member hive's installed modules;
/// - `freeIndices`, `nextSerial` and `nextSequence`;
/// - `liveLayers`: how many override layers on member hives are alive;
/// - `providedByChildren`: the services that `ServiceHive.child(_:)` has provided in this family;
/// - `provisions`: what `ServiceHive.child(_:)` gave each child that keeps it apart from its registry;
/// - `diagnostics`: the family's trace and failure handlers.
///
/// It owns the registries' storage, and frees it when the last hive of the family is gone.
struct HiveFamily: ~Copyable {
    /// Indexed by `HiveID.index`. A released hive's state has serial 0 and an empty registry, and its index is free
    /// for reuse.
    var hives: [HiveState] = []
    var modules: [HiveID: [InstalledModule]] = [:]
    var freeIndices: [Int] = []
    var nextSerial: UInt64 = 0
    var nextSequence: UInt64 = 0
    /// While zero, no override layer can apply to a resolve in this family, and the resolution path does not read
    /// the task-local layer stack, which costs about 20 ns.
    var liveLayers = 0
    /// Hashed by `ServiceTable`, since making a request's child hive inserts into it.
    var providedByChildren = ServiceTable<Bool>()
    /// Indexed by `HiveID.index`, `nil` for a hive that keeps none apart (`Provision.swift`).
    var provisions: [[Provision]?] = []
    var diagnostics = Diagnostics()
    /// The installs running in the hives of this family, whose rollbacks hand each other what to restore
    /// (`ServiceHive.rollBack(_:)`).
    var installs: [InstallRecorder] = []

    init() {}

    deinit {
        // The last hive is gone, so nothing resolves any more: the instances may be released here.
        for hive in hives {
            hive.registry.destroy()
            hive.registry.unmanagedReads.release()
        }
        providedByChildren.destroy()
    }

    /// Adds a hive and returns its identity.
    mutating func addHive() -> HiveID {
        nextSerial += 1
        if let index = freeIndices.popLast() {
            hives[index].serial = nextSerial
            return HiveID(index: index, serial: nextSerial)
        }
        hives.append(HiveState(serial: nextSerial))
        return HiveID(index: hives.count - 1, serial: nextSerial)
    }

    /// Removes a released hive and returns its registry and modules, for the caller to destroy and release after
    /// unlocking. The registry moves out whole, where listing its records cost a request's child hive 819
    /// instructions more (`Benchmarks/count-instructions 12`).
    mutating func removeHive(_ id: HiveID) -> (Registry, [InstalledModule]) {
        hives[id.index].serial = 0
        freeIndices.append(id.index)
        return (
            hives[id.index].registry.moveOut(),
            modules.isEmpty ? [] : modules.removeValue(forKey: id) ?? []
        )
    }

    /// The next registration's place in the family's registration order.
    mutating func takeSequence() -> UInt64 {
        nextSequence += 1
        return nextSequence
    }

    /// Whether the hive `id` is still alive.
    func isLive(_ id: HiveID) -> Bool { hives[id.index].isLive(id) }

    /// Runs `body` on the registry of the live hive `id`; `nil` if it has been released.
    mutating func withRegistry<Result>(_ id: HiveID, _ body: (inout Registry) -> Result) -> Result? {
        guard isLive(id) else { return nil }
        return body(&hives[id.index].registry)
    }
}
