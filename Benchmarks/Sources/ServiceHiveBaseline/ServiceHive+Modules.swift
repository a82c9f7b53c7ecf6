extension ServiceHive {
    // MARK: - Installing modules

    /// Installs business modules: registers all their services, all or nothing, then starts them.
    ///
    /// ```swift
    /// try await ServiceHive.shared.install([TradeModule(), AnalyticsModule()])
    /// ```
    ///
    /// Modules register in priority order, highest first; modules with equal priorities keep the order given.
    /// Each registration is attributed to its module. If any module's ``ServiceModule/register(in:)`` throws,
    /// every registration this install made is rolled back and nothing is started.
    ///
    /// Then every module starts, in the same order. If one fails to start, the modules started before it are
    /// stopped in reverse order and this install's registrations are rolled back. Either way the hive is left as
    /// it was before the install.
    ///
    /// - Parameter modules: The modules to install.
    /// - Throws: ``ServiceHiveError/moduleFailed(module:stage:underlying:)``, naming the module and the cause.
    public func install(_ modules: [any ServiceModule]) async throws(ServiceHiveError) {
        let prioritized = Self.startupOrder(modules)
        let ordered = prioritized.map(\.module)
        let recorder = InstallRecorder(hive: self)
        for module in ordered {
            recorder.currentModule = module.name
            do {
                try InstallRecorder.$current.withValue(recorder) { try module.register(in: self) }
            } catch {
                roll(back: recorder.recorded)
                throw .moduleFailed(module: module.name, stage: .registration, underlying: error)
            }
        }
        var started: [any ServiceModule] = []
        for module in ordered {
            do {
                try await module.start(in: self)
                started.append(module)
            } catch {
                for startedModule in started.reversed() { await startedModule.stop(in: self) }
                roll(back: recorder.recorded)
                throw .moduleFailed(module: module.name, stage: .start, underlying: error)
            }
        }
        self.modules.add(prioritized, family: family)
    }

    /// Installs business modules. See ``install(_:)``.
    ///
    /// - Parameter modules: The modules to install.
    /// - Throws: ``ServiceHiveError/moduleFailed(module:stage:underlying:)``, naming the module and the cause.
    public func install(_ modules: any ServiceModule...) async throws(ServiceHiveError) {
        try await install(modules)
    }

    /// Sends `event` to every installed module, one after another, in priority order.
    ///
    /// A module handles the events it knows in ``ServiceModule/handle(_:in:)`` and ignores the rest. Handlers
    /// don't throw: a module deals with its own failures, so that one module cannot keep an event from the others.
    ///
    /// - Parameter event: The event.
    public func broadcast(_ event: some ServiceModuleEvent) async {
        for module in modules.installed(family: family) {
            await module.handle(event, in: self)
        }
    }

    /// Stops every installed module, in reverse priority order, and forgets them. Registrations stay.
    public func shutdown() async {
        for module in modules.removeAll(family: family).reversed() {
            await module.stop(in: self)
        }
    }

    /// The names of the installed modules, in priority order.
    public var installedModules: [String] {
        modules.installed(family: family).map(\.name)
    }

    /// The modules sorted by priority, highest first, stably, each with its priority, read once.
    private static func startupOrder(_ modules: [any ServiceModule]) -> [PrioritizedModule] {
        modules.enumerated()
            .map { PrioritizedModule(module: $0.element, priority: $0.element.priority, sequence: $0.offset) }
            .sorted(by: PrioritizedModule.startsBefore)
    }
}

/// A module with its priority, read once so that sorting never calls into the module again, and the order it
/// was given or installed in, which breaks ties.
struct PrioritizedModule {
    let module: any ServiceModule
    let priority: Int
    var sequence: Int

    static func startsBefore(_ lhs: Self, _ rhs: Self) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
    }
}

/// The modules installed in one hive, in priority order.
final class ModuleList: @unchecked Sendable {
    // Sendable: `modules` and `nextSequence` are guarded by the owning hive's `HiveFamily.lock`, which every caller
    // passes in. No module code runs under it: priorities are read before.
    @exclusivity(unchecked) private var modules: [PrioritizedModule] = []
    @exclusivity(unchecked) private var nextSequence = 0

    /// Adds newly installed modules, keeping the whole list in priority order; earlier installs first on ties.
    func add(_ installed: [PrioritizedModule], family: HiveFamily) {
        family.lock.withLock {
            for var module in installed {
                module.sequence = nextSequence
                nextSequence += 1
                modules.append(module)
            }
            modules.sort(by: PrioritizedModule.startsBefore)
        }
    }

    /// The installed modules, in priority order.
    func installed(family: HiveFamily) -> [any ServiceModule] {
        family.lock.withLock { modules.map(\.module) }
    }

    /// Forgets every installed module and returns them, in priority order.
    func removeAll(family: HiveFamily) -> [any ServiceModule] {
        family.lock.withLock {
            defer { modules.removeAll() }
            return modules.map(\.module)
        }
    }
}
