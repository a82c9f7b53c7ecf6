#if Vapor
import Logging
import ServiceHive
import Synchronization
import Vapor

/// The lifecycle handler that ``Vapor/Application/useHive(_:modules:validation:provide:)`` adds: installs and
/// validates the modules at boot, and stops them at shutdown once the server has drained.
final class HiveLifecycle: LifecycleHandler {
    /// Where the modules are.
    enum State: Sendable {
        /// Before the boot.
        case idle
        /// Installed, checked and validated: the server may listen.
        case running
        /// The boot failed with this error; the modules were stopped, or never started.
        case refused(String)
        /// Stopped at shutdown.
        case stopped
    }

    let hive: ServiceHive
    let modules: [any ServiceModule]
    let validation: HiveValidation

    /// Guards `state`, the one field that changes.
    private let state = Locked(State.idle)
    /// Whether `state` is `.running`, written with it under its lock, and read without the lock by every request that
    /// makes its hive: a lock that every request of every event loop takes would serialize them.
    private let isRunning = Atomic(false)

    init(hive: ServiceHive, modules: [any ServiceModule], validation: HiveValidation) {
        self.hive = hive
        self.modules = modules
        self.validation = validation
    }

    /// Where the modules are now.
    var current: State { state.withLock { $0 } }

    /// Sets `state`, and `isRunning` with it.
    private func move(to new: State) {
        state.withLock { state in
            state = new
            if case .running = new {
                isRunning.store(true, ordering: .releasing)
            } else {
                isRunning.store(false, ordering: .releasing)
            }
        }
    }

    /// Throws unless the modules are running, so that no request is served by a hive whose modules did not start.
    func checkRunning() throws {
        if isRunning.load(ordering: .acquiring) { return }
        switch current {
        case .running: return
        case .idle: throw HiveVaporError.modulesNotRunning("the application has not booted")
        case .refused(let why): throw HiveVaporError.modulesNotRunning("the boot failed: \(why)")
        case .stopped: throw HiveVaporError.modulesNotRunning("the application has shut down")
        }
    }

    /// Installs, checks the declared dependencies, then validates; on a failure, stops the modules and throws, so that
    /// the server never listens.
    func willBootAsync(_ application: Application) async throws {
        do {
            if !modules.isEmpty { try await hive.install(modules) }
            // The check builds nothing, so it runs first, and whatever the validation.
            let check = hive.check()
            guard check.isClean else {
                await hive.shutdown()
                throw HiveVaporError.checkFailed(check)
            }
            if let plan = validation.plan {
                let report = await hive.validateAsync(plan)
                guard report.isValid else {
                    await hive.shutdown()
                    throw HiveVaporError.validationFailed(report)
                }
            }
        } catch {
            move(to: .refused("\(error)"))
            throw error
        }
        move(to: .running)
    }

    /// A synchronous boot cannot install modules, whose start is `async`: it throws instead of serving without them.
    func willBoot(_ application: Application) throws {
        move(to: .refused("\(HiveVaporError.bootedSynchronously)"))
        throw HiveVaporError.bootedSynchronously
    }

    /// Stops the server, which waits for the requests in flight, then the modules, in reverse install order.
    func shutdownAsync(_ application: Application) async {
        // Vapor runs the lifecycle handlers before it stops its server: stopping the server here first means no
        // request meets a stopped module. The server's own shutdown, later, finds it stopped and does nothing.
        await application.server.shutdown()
        guard
            state.withLock({ state in
                guard case .running = state else { return false }
                state = .stopped
                isRunning.store(false, ordering: .releasing)
                return true
            })
        else { return }
        await hive.shutdown()
    }

    /// A synchronous shutdown cannot stop modules, whose stop is `async`: it logs that they were not stopped.
    func shutdown(_ application: Application) {
        guard case .running = current else { return }
        application.logger.error(
            "The modules were not stopped: the application shut down synchronously. To fix, shut it down with try await app.asyncShutdown()."
        )
    }
}
#endif
