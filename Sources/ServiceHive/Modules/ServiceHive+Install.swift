extension ServiceHive {
    /// Installs business modules: registers all their services, all or nothing, then starts them.
    ///
    /// ```swift
    /// try await ServiceHive.shared.install([TradeModule(), AnalyticsModule()])
    /// ```
    ///
    /// Modules register in priority order, highest first; modules with equal priorities keep the order given. Then
    /// every module starts, in the same order. Everything a module registers or unregisters, in ``ServiceModule/register(in:)``
    /// or in ``ServiceModule/start(in:)``, is attributed to it.
    ///
    /// **All or nothing.** If a module fails to register or to start, the modules started before it are stopped in
    /// reverse order, the registrations of this install are removed, the registrations it unregistered are restored,
    /// and every cached instance of this hive's family that was built from a removed registration is dropped. The
    /// hive is left as it was before the install.
    ///
    /// - Parameter modules: The modules to install.
    /// - Throws: ``ServiceHiveError/moduleFailed(module:stage:underlying:)``, naming the module and the cause.
    public func install(_ modules: [any ServiceModule]) async throws {
        let ordered = InstalledModule.startupOrder(modules)
        let recorder = InstallRecorder(hive: self)
        var started: [any ServiceModule] = []
        do {
            try await InstallRecorder.$current.withValue(recorder) {
                for installed in ordered {
                    recorder.module = installed.module.name
                    try await Self.attempt(installed.module, .registration) { try installed.module.register(in: self) }
                }
                for installed in ordered {
                    recorder.module = installed.module.name
                    try await Self.attempt(installed.module, .start) { try await installed.module.start(in: self) }
                    started.append(installed.module)
                }
            }
        } catch {
            for module in started.reversed() { await module.stop(in: self) }
            rollBack(recorder.changes)
            throw error
        }
        family.withLock { state in state.modules[id] = InstalledModule.merge(state.modules[id] ?? [], ordered) }
    }

    /// Installs one business module: registers its services, all or nothing, then starts it.
    ///
    /// ```swift
    /// try await ServiceHive.shared.install(TradeModule())
    /// ```
    ///
    /// The same as ``install(_:)-([ServiceModule])`` with an array of this one module: if the module fails to
    /// register or to start, the hive is left as it was before the install.
    ///
    /// - Parameter module: The module to install.
    /// - Throws: ``ServiceHiveError/moduleFailed(module:stage:underlying:)``, naming the module and the cause.
    public func install(_ module: some ServiceModule) async throws {
        try await install([module])
    }

    /// Sends `event` to every installed module, one after another, in priority order.
    ///
    /// A module handles the events it knows in ``ServiceModule/handle(_:in:)`` and ignores the rest. Handlers don't
    /// throw: a module deals with its own failures, so that one module cannot keep an event from the others.
    ///
    /// - Parameter event: The event.
    public func broadcast(_ event: some ServiceModuleEvent) async {
        for module in installed {
            await module.handle(event, in: self)
        }
    }

    /// Stops every installed module, in reverse priority order, and forgets them. Registrations stay.
    public func shutdown() async {
        let modules = family.withLock { state in state.modules.removeValue(forKey: id) ?? [] }
        for installed in modules.reversed() {
            await installed.module.stop(in: self)
        }
    }

    /// The names of the installed modules, in priority order.
    public var installedModules: [String] {
        installed.map(\.name)
    }

    /// The installed modules, in priority order.
    private var installed: [any ServiceModule] {
        family.withLock { state in (state.modules[id] ?? []).map(\.module) }
    }

    /// Runs one stage of one module, wrapping what it throws in `moduleFailed`.
    private static func attempt(
        _ module: any ServiceModule,
        _ stage: ServiceHiveError.ModuleStage,
        _ body: () async throws -> Void
    ) async throws(ServiceHiveError) {
        do {
            try await body()
        } catch {
            throw .moduleFailed(module: module.name, stage: stage, underlying: error)
        }
    }
}

/// An installed module with its priority, read once so that sorting never calls into the module again, and the
/// order it was given or installed in, which breaks ties.
struct InstalledModule: Sendable {
    let module: any ServiceModule
    let priority: Int
    let sequence: Int

    /// The modules sorted by priority, highest first, stably.
    static func startupOrder(_ modules: [any ServiceModule]) -> [InstalledModule] {
        modules.enumerated()
            .map { InstalledModule(module: $0.element, priority: $0.element.priority, sequence: $0.offset) }
            .sorted(by: startsBefore)
    }

    /// The installed modules and newly installed ones, in priority order; earlier installs first on ties.
    static func merge(_ installed: [InstalledModule], _ new: [InstalledModule]) -> [InstalledModule] {
        let next = (installed.map(\.sequence).max() ?? -1) + 1
        let renumbered = new.enumerated().map {
            InstalledModule(module: $0.element.module, priority: $0.element.priority, sequence: next + $0.offset)
        }
        return (installed + renumbered).sorted(by: startsBefore)
    }

    private static func startsBefore(_ lhs: Self, _ rhs: Self) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
    }
}
