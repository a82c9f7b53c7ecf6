#if ServiceLifecycle
import ServiceLifecycle

/// A service that runs beside the modules in a group and writes to a journal how the group ended it: it returns on
/// graceful shutdown and throws `CancellationError` on cancellation.
struct Sentinel: Service, CustomStringConvertible {
    let journal: Journal

    var description: String { "Sentinel" }

    func run() async throws {
        do {
            try await gracefulShutdown()
            journal.write("sentinel shut down gracefully")
        } catch {
            journal.write("sentinel cancelled")
            throw error
        }
    }
}
#endif
