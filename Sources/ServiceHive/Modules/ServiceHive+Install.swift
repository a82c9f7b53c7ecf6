extension ServiceHive {
    /// Installs business modules: registers all their services, all or nothing, then starts them.
    ///
    /// ```swift
    /// try await ServiceHive.shared.install([TradeModule(), AnalyticsModule()])
    /// ```
    ///
    /// **The order.** Each module registers, and then starts, after the modules that provide what it needs: its
    /// ``ServiceModule/needs`` against their ``ServiceModule/provides``. Among the modules free to go, the one with
    /// the higher priority goes first, then the one given first; so modules that declare nothing register in priority
    /// order, highest first, ties in the order given. Every module registers before any module starts. Everything a
    /// module registers or unregisters, in ``ServiceModule/register(in:)`` or in ``ServiceModule/start(in:)``, is
    /// attributed to it.
    ///
    /// **Declarations are checked first.** Before any module registers, the install checks that no module both needs
    /// and provides a service, that no two of its modules provide the same one, that each need is provided by one of
    /// its modules or registered in the hive or an ancestor already (by a module installed before, for example), and
    /// that the needs form no cycle. After each module registers, it checks that the module registered everything it
    /// provides. Once every module has registered, before any starts, it checks the dependencies that their
    /// registrations declare (by initializer, or with `dependsOn:`): each must be registered by the module itself, be
    /// in its ``ServiceModule/needs``, or have been in the hive before the install.
    ///
    /// **Registered together.** While the modules register, the install keeps what they register to itself: a module
    /// can forward to it or unregister it, but not resolve it, and no one else sees it. Once the checks above have
    /// passed, the install adds all of it to the hive in one step, in order, before any module starts; so an install
    /// refused by them registers nothing. A registration that takes the place of one the hive has is refused at the
    /// call; two of the install with one place fail the install when it adds them, even if a module caught an error.
    ///
    /// **All or nothing.** If a module fails to register or to start, or has not registered what it provides, the
    /// modules started before it are stopped in reverse order, the registrations of this install are removed, the
    /// registrations it unregistered are restored, and every cached instance of this hive's family that was built from
    /// a removed registration is dropped. The hive is left as it was before the install.
    ///
    /// - Parameter modules: The modules to install, in any order.
    /// - Throws: A ``ServiceHiveError``: ``ServiceHiveError/moduleFailed(module:stage:underlying:)``, naming the module
    ///   and the cause; ``ServiceHiveError/provisionMissing(module:service:registered:)``;
    ///   ``ServiceHiveError/moduleDependencyUnmet(module:registration:parameter:needs:)``, before anything registers;
    ///   or, before any module
    ///   registers, ``ServiceHiveError/conflictingDeclaration(module:service:)``,
    ///   ``ServiceHiveError/duplicateProvision(_:modules:)``, ``ServiceHiveError/unmetNeed(module:service:providers:)``
    ///   or ``ServiceHiveError/moduleCycle(modules:services:)``.
    public func install(_ modules: [any ServiceModule]) async throws {
        let ordered = try InstallPlan(modules, into: self).modules
        let recorder = InstallRecorder(hive: self)
        // What the modules register is staged, and added to the hive once what it declares is checked.
        recorder.beginStaging()
        family.withLock { $0.installs.append(recorder) }
        var started: [any ServiceModule] = []
        do {
            try await InstallRecorder.$current.withValue(recorder) {
                for installed in ordered {
                    recorder.module = installed.name
                    try await Self.attempt(installed, .registration) { try installed.module.register(in: self) }
                    try checkProvisions(of: installed, recorder)
                }
                try checkDeclaredDependencies(of: ordered, recorder)
                try applyStaged(recorder)
                for installed in ordered {
                    recorder.module = installed.name
                    try await Self.attempt(installed, .start) { try await installed.module.start(in: self) }
                    started.append(installed.module)
                }
            }
        } catch {
            for module in started.reversed() { await module.stop(in: self) }
            rollBack(recorder)
            throw error
        }
        family.withLock { state in
            state.installs.removeAll { $0 === recorder }
            state.modules[id] = InstalledModule.startupOrder((state.modules[id] ?? []) + ordered).ordered
        }
    }

    /// Installs one business module: registers its services, all or nothing, then starts it.
    ///
    /// ```swift
    /// try await ServiceHive.shared.install(TradeModule())
    /// ```
    ///
    /// The same as ``install(_:)-([ServiceModule])`` with an array of this one module: if the module fails to
    /// register or to start, the hive is left as it was before the install. Its needs must be registered in the hive
    /// or an ancestor already.
    ///
    /// - Parameter module: The module to install.
    /// - Throws: A ``ServiceHiveError``, as ``install(_:)-([ServiceModule])`` does.
    public func install(_ module: some ServiceModule) async throws {
        try await install([module])
    }

    /// Sends `event` to every installed module, one after another, in the order they install: after the modules that
    /// provide what they need, by priority among the others.
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

    /// Stops every installed module, in the reverse of the order they install, and forgets them: a module stops before
    /// the modules that provide what it needs, and before the modules of a lower priority. Registrations stay.
    public func shutdown() async {
        let modules = family.withLock { state in state.modules.removeValue(forKey: id) ?? [] }
        for installed in modules.reversed() {
            await installed.module.stop(in: self)
        }
    }

    /// The names of the modules installed in this hive, in the order they install: each after the modules that
    /// provide what it needs, and among the others by priority, then in the order given and installed. Across
    /// installs too, so that ``shutdown()`` stops them in the reverse of this order.
    public var installedModules: [String] {
        family.withLock { state in (state.modules[id] ?? []).map(\.name) }
    }

    /// The modules installed in this hive and its ancestors, with what they declare: the hive's first, each hive's in
    /// the order they install.
    var moduleDeclarations: [DependencyGraph.Module] {
        family.withLock { state in lineage.flatMap { state.modules[$0] ?? [] } }.map { module in
            DependencyGraph.Module(
                name: module.name, needs: module.needs.map(\.key), provides: module.provides.map(\.key))
        }
    }

    /// The installed modules, in the order they install.
    private var installed: [any ServiceModule] {
        family.withLock { state in (state.modules[id] ?? []).map(\.module) }
    }

    /// Adds to this hive, in order and in one step, what the modules of the install registered, which the install
    /// staged until then; from now on, what the install registers is added as it is registered.
    ///
    /// - Throws: ``ServiceHiveError/moduleFailed(module:stage:underlying:)`` at registration, with
    ///   ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)``, for the first staged registration whose place
    ///   another one took: an earlier one of the install, or one that something outside the install made meanwhile.
    ///   What was added before it is rolled back with the install.
    private func applyStaged(_ recorder: InstallRecorder) throws(ServiceHiveError) {
        let staged = recorder.endStaging()
        try family.withLock { (state) throws(ServiceHiveError) in
            for entry in staged {
                do {
                    try state.insert(entry, into: id)
                } catch {
                    throw .moduleFailed(module: entry.site.module ?? "", stage: .registration, underlying: error)
                }
                recorder.added(entry)
            }
        }
    }

    /// Runs one stage of one module, wrapping what it throws in `moduleFailed`.
    private static func attempt(
        _ module: InstalledModule,
        _ stage: ServiceHiveError.ModuleStage,
        _ body: () async throws -> Void
    ) async throws(ServiceHiveError) {
        do {
            try await body()
        } catch {
            throw .moduleFailed(module: module.name, stage: stage, underlying: error)
        }
    }

    /// Checks that `module` registered everything it provides, in this hive, while it registered: among the
    /// registrations the install staged for it, one for each provision.
    private func checkProvisions(of module: InstalledModule, _ recorder: InstallRecorder) throws(ServiceHiveError) {
        guard !module.provides.isEmpty else { return }
        let registered = recorder.changes.staged.filter { $0.site.module == module.name }
        for service in module.provides where !registered.contains(where: { service.matches($0.key) }) {
            throw .provisionMissing(module: module.name, service: service.key, registered: registered.map(\.serviceKey))
        }
    }
}
