extension ServiceHive {
    /// Tries every registration this hive can resolve, and reports every failure at once.
    ///
    /// ```swift
    /// @Test func theCompositionRootIsSound() async throws {
    ///     let hive = ServiceHive()
    ///     try await hive.install(AppModules.all)
    ///     #expect(hive.validate().failures.isEmpty)
    /// }
    /// ```
    ///
    /// Each registration is resolved once, as this hive would resolve it: its own, and its ancestors' that it does
    /// not shadow. Validation runs in a sandbox: every shared instance built while validating belongs to the sandbox
    /// and is released when validation ends, in every hive, so validation leaves no trace. The factories do run, so
    /// validate at startup or in a test, not on a hot path; a factory with outside effects has them once more.
    ///
    /// Services that are provided later, such as a request's session in a child hive, and registrations that take
    /// runtime arguments, can be validated too, with samples:
    ///
    /// ```swift
    /// let report = app.validate { plan in
    ///     plan.provide(Session.self, Session(user: "sample"))
    ///     plan.arguments(for: Basket.self, "customer-7")
    /// }
    /// ```
    ///
    /// A failure gives the registration and the error: a missing dependency with the chain that needed it, a cycle,
    /// or a factory's own error. Registrations that take runtime arguments without samples are listed as skipped.
    ///
    /// - Parameter plan: Provides samples of services and of runtime arguments.
    /// - Returns: The report.
    public func validate(_ plan: (inout ValidationPlan) -> Void = { _ in }) -> ValidationReport {
        var run = ValidationRun(hive: self, plan: plan)
        OverrideLayer.$bound.withValue(.init(run.sandbox)) {
            for record in run.records { run.attempt(record) }
        }
        return run.report
    }

    /// Tries every registration this hive can resolve, as ``validate(_:)`` does, awaiting async factories too.
    ///
    /// ```swift
    /// let report = await hive.validateAsync()
    /// ```
    ///
    /// ``validate(_:)`` cannot wait, so it lists registrations with an async factory as skipped; this builds them,
    /// with ``ServiceHive/Resolving/resolveAsync(_:name:)``.
    ///
    /// - Parameter plan: Provides samples of services and of runtime arguments.
    /// - Returns: The report.
    public func validateAsync(_ plan: (inout ValidationPlan) -> Void = { _ in }) async -> ValidationReport {
        var run = ValidationRun(hive: self, plan: plan)
        await OverrideLayer.$bound.withValue(.init(run.sandbox)) {
            for record in run.records {
                if record.entry.isAsync { await run.attemptAsync(record) } else { run.attempt(record) }
            }
        }
        return run.report
    }

    /// Samples of the services and runtime arguments that ``ServiceHive/validate(_:)`` cannot get by itself.
    public struct ValidationPlan {
        var provisions = Provisions()
        var arguments: [RegistrationKey: (Resolver) throws -> Void] = [:]

        init() {}

        /// Provides a sample of a service that is provided later, such as a request's session in a child hive. The
        /// registrations that depend on it are then validated with the sample.
        ///
        /// - Parameters:
        ///   - service: The service.
        ///   - name: The registration's name, or `nil`.
        ///   - sample: The instance that validation resolves for it.
        ///   - file: The file, for introspection.
        ///   - line: The line.
        public mutating func provide<Service>(
            _ service: Service.Type,
            name: String? = nil,
            _ sample: Service,
            file: String = #fileID,
            line: UInt = #line
        ) {
            provisions.provide(Service.self, name: name, sample, file: file, line: line)
        }

        /// Provides sample runtime arguments for a registration that takes them, so that validation resolves it
        /// instead of skipping it.
        ///
        /// - Parameters:
        ///   - service: The registered service.
        ///   - name: The registration's name, or `nil`.
        ///   - first: The first sample argument. The arguments' types must be exactly the registration's.
        ///   - rest: The other sample arguments, if any.
        public mutating func arguments<Service, First, each Rest>(
            for service: Service.Type,
            name: String? = nil,
            _ first: First,
            _ rest: repeat each Rest
        ) {
            let key = RegistrationKey(
                Service.self, name: name, arguments: ArgumentPack.signature(First.self, repeat (each Rest).self))
            self.arguments[key] = { resolver in
                _ = try resolver.resolve(Service.self, name: name, arguments: first, repeat each rest)
            }
        }
    }
}
