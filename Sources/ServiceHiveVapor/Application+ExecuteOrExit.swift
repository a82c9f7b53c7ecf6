#if Vapor
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import Vapor

extension Application {
    /// Runs the application until it shuts down, then shuts it down, as `execute()` then `asyncShutdown()` do; when
    /// it fails, logs why once and exits the process with status 1.
    ///
    /// A server's `main.swift` ends with it:
    ///
    /// ```swift
    /// let app = try await Application.make(.detect())
    /// try app.useHive(hive, modules: [TradeModule()], validation: .all)
    /// app.grouped("api").hiveComponents()
    /// await app.executeOrExit()
    /// ```
    ///
    /// When the modules fail to install or to validate, the boot throws before the server listens. Thrown at the top
    /// level of a program, that error traps (`Fatal error: Error raised at top level`), and `execute()` has logged it
    /// already. This logs it once, at `critical` on the application's logger, shuts the application down, and exits
    /// with status 1, as a service manager expects of a program that could not start:
    ///
    /// ```text
    /// … critical : The application did not start, and exits with status 1: Module …
    /// ```
    ///
    /// The line says `did not start` when the hive's modules failed to install or validate, and gives the error,
    /// which names the module, or lists the registrations that failed validation. Any other error, such as a port
    /// in use, logs `stopped on an error` instead, and exits with status 1 too. After a shutdown (SIGTERM or SIGINT,
    /// or `running?.stop()`), the modules stop after the server has drained, and this returns.
    public func executeOrExit() async {
        do {
            try await startup()
            try await running?.onStop.get()
        } catch {
            var refused = false
            if let lifecycle = try? hiveConfiguration.lifecycle, case .refused = lifecycle.current { refused = true }
            let verb = refused ? "did not start" : "stopped on an error"
            logger.critical("The application \(verb), and exits with status 1: \(error)")
            try? await asyncShutdown()
            exit(1)
        }
        do {
            try await asyncShutdown()
        } catch {
            logger.error("The application did not shut down cleanly: \(error)")
        }
    }
}
#endif
