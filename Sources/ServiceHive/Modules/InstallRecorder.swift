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
        /// dependencies they declare are checked (`ServiceHive.applyStaged(_:)`).
        var staged: [Entry] = []
        /// The position in `staged` of each staged key, and of each staged contribution's name in its collection.
        var stagedKeys: [RegistrationKey: Int] = [:]
        var stagedNames: [ContributionPlace: Int] = [:]
    }

    /// A contribution's name in its collection, which no two contributions share.
    struct ContributionPlace: Hashable, Sendable {
        let collection: ObjectIdentifier
        let name: String
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

    /// The value of a dictionary's place, which reading it through `subscript(_:default:)` with `inout` fills.
    private static func take(_ value: inout Int) -> Int { value }

    /// Whether the modules are registering, so that what they register is staged.
    var isStaging: Bool {
        get { state.withLock { $0.isStaging } }
        set { state.withLock { $0.isStaging = newValue } }
    }

    /// Stages `entry`, unless a staged registration already has its place: the same key, or the same contribution's
    /// name in the same collection.
    func stage(_ entry: Entry) throws(ServiceHiveError) {
        let existing: Entry? = state.withLock { changes in
            let next = changes.staged.count
            // Looked up and, when free, taken in one hash of the key.
            let position = Self.take(&changes.stagedKeys[entry.key, default: next])
            guard position == next else { return changes.staged[position] }
            if let name = entry.contributionName {
                let place = ContributionPlace(collection: entry.key.service, name: name)
                let named = Self.take(&changes.stagedNames[place, default: next])
                guard named == next else {
                    changes.stagedKeys[entry.key] = nil
                    return changes.staged[named]
                }
            }
            changes.staged.append(entry)
            return nil
        }
        if let existing {
            throw .alreadyRegistered(existing.serviceKey, existing: existing.site, rejected: entry.site)
        }
    }

    /// The registration staged under `key`, if any.
    func staged(_ key: RegistrationKey) -> Entry? {
        state.withLock { changes in changes.stagedKeys[key].map { changes.staged[$0] } }
    }

    /// Removes the staged registration under `key`, if any; returns whether there was one.
    func unstage(_ key: RegistrationKey) -> Bool {
        state.withLock { changes in
            guard let position = changes.stagedKeys.removeValue(forKey: key) else { return false }
            let entry = changes.staged.remove(at: position)
            if let name = entry.contributionName {
                changes.stagedNames[ContributionPlace(collection: entry.key.service, name: name)] = nil
            }
            for (key, later) in changes.stagedKeys where later > position { changes.stagedKeys[key] = later - 1 }
            for (place, later) in changes.stagedNames where later > position { changes.stagedNames[place] = later - 1 }
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
