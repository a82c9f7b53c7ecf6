#if ServiceLifecycle
import ServiceLifecycle

/// A service that fails when told: it throws ``ServiceFailure`` as soon as `failNow` yields.
struct FailingService: Service, CustomStringConvertible {
    let journal: Journal
    let failNow: AsyncStream<Void>

    var description: String { "FailingService" }

    func run() async throws {
        for await _ in failNow {
            journal.write("failing service fails")
            throw ServiceFailure()
        }
        // Cancelled, or `failNow` finished, before it was told to fail.
        throw CancellationError()
    }
}

/// What a ``FailingService`` throws.
struct ServiceFailure: Error {}
#endif
