/// What one ``ServiceHive/install(_:)`` changed, so that its registrations can be attributed to their module and the
/// whole install undone if it fails.
///
/// `install` binds it to the task-local ``current`` while modules register and start; `add` and `unregister` report
/// to it. While the install runs, the family lists it among its running installs (`HiveFamily.installs`), so that the
/// rollback of another install can hand it what to restore.
final class InstallRecorder: Sendable {
    /// The install running in the current task, if any.
    @TaskLocal static var current: InstallRecorder?

    /// The hive being installed into; changes to other hives are not recorded.
    let hive: ServiceHive
    /// Guards, and only guards, the module being installed and the changes made so far. A module may change the
    /// hive from tasks it starts, which inherit the task-local.
    private let state = Locked(Changes())

    struct Changes: Sendable {
        var module: String?
        /// The registrations the install added to the hive, in order.
        var added: [Entry] = []
        /// The registrations the install removed, in order, to restore if it fails.
        var removed: [Record] = []
        /// Whether the modules are registering: their registrations are staged, not added to the hive.
        var isStaging = false
        /// The registrations the modules made while they registered, in order: added to the hive together once the
        /// dependencies they declare are checked (`ServiceHive.applyStaged(_:)`), which is also where two of them
        /// with one place are refused.
        var staged: [Entry] = []
        /// The position in `staged` of each staged key, made by the first lookup of a staged key (a forward to one,
        /// or an unregister of one) and kept from then on. Staging hashes nothing until then: with a dictionary of
        /// every staged key, to refuse a second one at once, an install cost 8% more a registration
        /// (`Benchmarks/count-instructions 26b`: 17,760 instructions; 16,734 without it; 16,402 before staging).
        var stagedKeys: [RegistrationKey: Int]?

        /// Stages `entry`, after what was staged before it.
        mutating func stage(_ entry: Entry) {
            stagedKeys?[entry.key] = staged.count
            staged.append(entry)
        }

        /// The position in `staged` of the registration staged last under `key`, while the modules are registering.
        mutating func stagedPosition(of key: RegistrationKey) -> Int? {
            guard isStaging else { return nil }
            let positions =
                stagedKeys ?? Dictionary(staged.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { $1 })
            stagedKeys = positions
            return positions[key]
        }
    }

    init(hive: ServiceHive) {
        self.hive = hive
    }

    /// The module whose `register(in:)` or `start(in:)` is running.
    var module: String? {
        get { state.withLock { $0.module } }
        set { state.withLock { $0.module = newValue } }
    }

    func added(_ entry: Entry) { state.withLock { $0.added.append(entry) } }

    /// The module that is registering, and whether what it registers is staged.
    var registering: (module: String?, isStaging: Bool) { state.withLock { ($0.module, $0.isStaging) } }

    /// Starts the staging: from now on, until `endStaging()`, what the install's modules register is staged.
    func beginStaging() { state.withLock { $0.isStaging = true } }

    /// Stages `entry` if the modules are still registering; returns whether it did. A staged registration that takes
    /// the place of another is refused when the staged registrations are added to the hive.
    func stage(_ entry: Entry) -> Bool {
        state.withLock { changes in
            guard changes.isStaging else { return false }
            changes.stage(entry)
            return true
        }
    }

    /// Ends the staging, and returns what was staged, in order: from now on, what the install registers is added to
    /// the hive as it is registered.
    func endStaging() -> [Entry] {
        state.withLock { changes in
            changes.isStaging = false
            changes.stagedKeys = nil
            return changes.staged
        }
    }

    /// Stages `entries`, in order, if the modules are still registering; returns whether it did.
    func stage(_ entries: [Entry]) -> Bool {
        state.withLock { changes in
            guard changes.isStaging else { return false }
            for entry in entries { changes.stage(entry) }
            return true
        }
    }

    /// The registration staged under `key`, if the modules are still registering and there is one.
    func staged(_ key: RegistrationKey) -> Entry? {
        state.withLock { changes in changes.stagedPosition(of: key).map { changes.staged[$0] } }
    }

    /// Removes the registration staged under `key`, if the modules are still registering and there is one; returns
    /// whether there was one.
    func unstage(_ key: RegistrationKey) -> Bool {
        state.withLock { changes in
            guard let position = changes.stagedPosition(of: key) else { return false }
            changes.staged.remove(at: position)
            changes.stagedKeys = nil  // positions moved: the next lookup makes them again
            return true
        }
    }

    /// Records that the install removed `record`. Called with the family lock held, in the step that removed it, so
    /// that a rollback of another install running at the same time, which reads this under the family lock, sees it.
    func removed(_ record: Record) { state.withLock { $0.removed.append(record) } }

    /// Hands this install the restoring of `record` in place of `entry`, which it removed: `entry` was added by another
    /// install that is rolling back, and `record` is what that install removed in its place, or `nil` if it removed
    /// nothing there. Called with the family lock held.
    ///
    /// - Returns: Whether this install removed `entry`.
    func handOver(_ entry: Entry, restoring record: Record?) -> Bool {
        state.withLock { changes in
            guard let position = changes.removed.firstIndex(where: { $0.entry === entry }) else { return false }
            if let record {
                changes.removed[position] = record
            } else {
                changes.removed.remove(at: position)
            }
            return true
        }
    }

    /// Everything the install changed.
    var changes: Changes { state.withLock { $0 } }
}
