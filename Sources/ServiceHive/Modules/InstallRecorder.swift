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
        /// The registrations the install added, in order.
        var added: [Entry] = []
        /// The registrations the install removed, in order, to restore if it fails.
        var removed: [Record] = []
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
