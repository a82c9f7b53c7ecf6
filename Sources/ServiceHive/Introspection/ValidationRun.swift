/// One validation: the sandbox it runs in, what it tries, and what it found.
struct ValidationRun {
    let hive: ServiceHive
    let samples: ServiceHive.ValidationPlan
    let records: [Record]
    /// Every shared instance built while validating belongs to it, and goes with it.
    let sandbox: OverrideLayer
    private var result = ServiceHive.ValidationReport(passed: [], failures: [], skipped: [])
    private var traces: [ServiceHive.Trace.Node] = []

    init(hive: ServiceHive, plan: (inout ServiceHive.ValidationPlan) -> Void) {
        var samples = ServiceHive.ValidationPlan()
        plan(&samples)
        self.hive = hive
        self.samples = samples
        records = hive.visibleRecords
        sandbox = OverrideLayer(
            hive: hive, kind: .sandbox, overrides: samples.provisions.entries.reversed(),  // the last sample wins
            outer: OverrideLayer.current)
    }

    /// Tries a registration without an async factory, traced so that the report can draw who resolved whom.
    mutating func attempt(_ record: Record) {
        let entry = record.entry
        let attempt: ((ServiceHive.Resolver) throws -> Void)? =
            entry.isAsync
            ? nil
            : entry.key.arguments == nil
                ? { resolver in try entry.factory.resolve(entry.key, with: resolver) } : samples.arguments[entry.key]
        guard let attempt else { return result.skipped.append(entry.registration) }
        let context = ThreadContext.current
        context.beginTrace(entry.serviceKey)
        do {
            try attempt(hive.resolver)
            result.passed.append(entry.registration)
        } catch {
            // The samples only resolve, so everything thrown is a `ServiceHiveError`; the fallback keeps it total.
            let error = error as? ServiceHiveError ?? .factoryFailed(entry.serviceKey, chain: [], underlying: error)
            result.failures.append(.init(registration: entry.registration, error: error))
        }
        traces += context.endTrace(failed: false).children
    }

    /// Tries a registration with an async factory.
    mutating func attemptAsync(_ record: Record) async {
        let entry = record.entry
        do {
            try await entry.factory.resolveAsync(entry.key, with: hive.resolver)
            result.passed.append(entry.registration)
        } catch {
            result.failures.append(.init(registration: entry.registration, error: error))
        }
    }

    /// The report, with its dependency graph.
    var report: ServiceHive.ValidationReport {
        let cycles = result.failures.compactMap { failure -> [ServiceHive.ServiceKey]? in
            guard case .circularDependency(let chain) = failure.error else { return nil }
            return chain
        }
        var report = result
        report.graph = ServiceHive.DependencyGraph(
            traces: traces, registrations: records.map(\.entry.registration), cycles: cycles,
            modules: hive.moduleDeclarations)
        return report
    }
}
