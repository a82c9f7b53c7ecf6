#if Hummingbird
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import Hummingbird
import Logging
import ServiceHiveLifecycle
public import UnixSignals

extension ApplicationProtocol {
    /// Runs the application until graceful shutdown, as `runService(gracefulShutdownSignals:)` does; when it fails,
    /// logs why and exits the process with status 1.
    ///
    /// A server's `main.swift` ends with it:
    ///
    /// ```swift
    /// await app.runServiceOrExit()
    /// logger.info("stopped")  // after graceful shutdown
    /// ```
    ///
    /// When the modules of a `ModulesService` fail to install, to start or to validate, `runService()` throws before
    /// the server listens. Thrown at the top level of a program, that error crashes it: `Fatal error: Error raised at
    /// top level`, then a trap, which a shell reports as exit status 132. This logs the error instead, at `critical`
    /// on the application's logger, and exits with status 1, as a service manager expects of a program that could
    /// not start:
    ///
    /// ```text
    /// … critical TradeServer: [ServiceHiveHummingbird] TradeServer did not start, and exits with status 1: Module …
    /// ```
    ///
    /// The line says `did not start` when a `ModulesService` of the application failed to start, and gives its
    /// error, which names the module, or lists the registrations that failed validation. An error after a good start,
    /// such as a service that fails later, logs `stopped on an error` instead, and exits with status 1 too. After
    /// graceful shutdown it returns, and the program goes on: exit status 0 once it ends.
    ///
    /// - Parameter gracefulShutdownSignals: The signals that shut the application down gracefully. By default,
    ///   SIGTERM and SIGINT.
    public func runServiceOrExit(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) async {
        do {
            try await runService(gracefulShutdownSignals: gracefulShutdownSignals)
        } catch {
            let name = configuration.serverName ?? "The application"
            if let failure = await modulesStartFailure() {
                logger.critical("\(name) did not start, and exits with status 1: \(failure)")
            } else {
                logger.critical("\(name) stopped on an error, and exits with status 1: \(error)")
            }
            exit(1)
        }
    }

    /// What made the first `ModulesService` among the application's services that failed to start fail, if one did.
    func modulesStartFailure() async -> (any Error)? {
        for case let modules as ModulesService in services {
            if let failure = await modules.startFailure { return failure }
        }
        return nil
    }
}
#endif
