#if ServiceLifecycle
import ServiceHive

/// A module that writes each call it receives to a journal, registers one `Marker` under its own name, and starts as
/// told.
struct RecordingModule: ServiceModule {
    /// What the module's `start(in:)` does after it writes to the journal.
    enum Start: Sendable {
        /// Returns.
        case succeeds
        /// Throws ``StartFailure``.
        case fails
        /// Waits until its task is cancelled, then throws `CancellationError`.
        case waitsUntilCancelled
    }

    let name: String
    let priority: Int
    let journal: Journal
    var onStart: Start = .succeeds

    func register(in hive: ServiceHive) throws {
        journal.write("register \(name)")
        try hive.register(Marker.self, name: name) { Marker() }
    }

    func start(in hive: ServiceHive) async throws {
        journal.write("start \(name)")
        switch onStart {
        case .succeeds:
            return
        case .fails:
            throw StartFailure()
        case .waitsUntilCancelled:
            try await Task.sleep(for: .seconds(86_400))
        }
    }

    func stop(in hive: ServiceHive) async {
        journal.write("stop \(name)")
    }
}

/// The service each ``RecordingModule`` registers, under the module's name.
struct Marker: Sendable {}

/// What a ``RecordingModule`` that fails to start throws.
struct StartFailure: Error, CustomStringConvertible {
    var description: String { "the database is offline" }
}
#endif
