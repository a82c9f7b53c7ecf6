/// What one ``ServiceHive/install(_:)-([ServiceModule])`` registered, so that the registrations can be attributed to their module
/// and rolled back if the install fails.
///
/// `install` binds it to the task-local ``current`` while it calls each module's `register(in:)`; `add` reads it.
final class InstallRecorder: @unchecked Sendable {
    // Sendable: `hive` is immutable; `module` and `entries` are guarded by `lock`, since a module could register
    // from a task that it starts and that inherits the task-local.

    /// The install running in the current task, if any.
    @TaskLocal static var current: InstallRecorder?

    /// The hive being installed into; registrations into other hives are not recorded.
    let hive: ServiceHive
    private let lock = Lock.allocate()
    private var module: String?
    private var entries: [Entry] = []

    init(hive: ServiceHive) {
        self.hive = hive
    }

    deinit {
        lock.deallocate()
    }

    /// The module whose `register(in:)` is running.
    var currentModule: String? {
        get { lock.withLock { module } }
        set { lock.withLock { module = newValue } }
    }

    /// Records a registration made by the install.
    func record(_ entry: Entry) {
        lock.withLock { entries.append(entry) }
    }

    /// Everything the install registered, in order.
    var recorded: [Entry] { lock.withLock { entries } }
}
