extension ServiceHive {
    /// Tries every registration of this hive and reports every failure at once.
    ///
    /// ```swift
    /// @Test("the composition root is sound")
    /// func compositionRoot() async throws {
    ///     let hive = ServiceHive()
    ///     try await hive.install(AppModules.all)
    ///     #expect(hive.validate().failures.isEmpty)
    /// }
    /// ```
    ///
    /// Each registration is resolved once, in a sandbox: an override scope with no overrides, so every
    /// `.singleton` and `.weak` instance built while validating belongs to the sandbox and is released when
    /// validation ends. The hive is left with no cached instance and no other trace. The factories do run, so
    /// validate at startup or in a test, not on a hot path; a factory with outside effects has them once more.
    ///
    /// A failure gives the registration and the error: a missing dependency with the chain that needed it, a
    /// cycle, or a factory's own error. Registrations that take runtime arguments can't be built without them and
    /// are listed as skipped. A parent's registrations are validated on the parent.
    ///
    /// - Returns: The report.
    public func validate() -> ValidationReport {
        let entries = state.lock.withLock { state.registry.pointee.allEntries }.sorted { $0.sequence < $1.sequence }
        var report = ValidationReport(passed: [], failures: [], skipped: [])
        withOverrides { _ in
        } operation: {
            for entry in entries {
                guard entry.key.arguments == nil else {
                    report.skipped.append(entry.registration)
                    continue
                }
                do throws(ServiceHiveError) {
                    try entry.resolveForValidation(from: self)
                    report.passed.append(entry.registration)
                } catch {
                    report.failures.append(ValidationReport.Failure(registration: entry.registration, error: error))
                }
            }
        }
        return report
    }

    /// The outcome of ``validate()``.
    public struct ValidationReport: Sendable, CustomStringConvertible {
        /// A registration that failed to resolve, and why.
        public struct Failure: Sendable, CustomStringConvertible {
            /// The registration that failed.
            public var registration: Registration
            /// Why it failed.
            public var error: ServiceHiveError

            /// Creates a failure.
            ///
            /// - Parameters:
            ///   - registration: The registration that failed.
            ///   - error: Why it failed.
            public init(registration: Registration, error: ServiceHiveError) {
                self.registration = registration
                self.error = error
            }

            /// `FAILED Checkout, transient, at App/Checkout.swift:12: TradeService is not registered (needed by …`
            public var description: String {
                "FAILED \(registration): \(error)"
            }
        }

        /// The registrations that resolved.
        public var passed: [Registration]
        /// The registrations that failed, with their errors.
        public var failures: [Failure]
        /// The registrations that take runtime arguments, which validation can't supply.
        public var skipped: [Registration]

        /// Creates a report.
        ///
        /// - Parameters:
        ///   - passed: The registrations that resolved.
        ///   - failures: The registrations that failed, with their errors.
        ///   - skipped: The registrations that take runtime arguments.
        public init(passed: [Registration], failures: [Failure], skipped: [Registration]) {
            self.passed = passed
            self.failures = failures
            self.skipped = skipped
        }

        /// Whether every registration that could be tried resolved.
        public var isValid: Bool { failures.isEmpty }

        /// A summary line, then one line per failure and per skipped registration.
        public var description: String {
            let total = passed.count + failures.count + skipped.count
            let summary =
                "Validated \(total) registration\(total == 1 ? "" : "s"): \(passed.count) passed, "
                + "\(failures.count) failed, \(skipped.count) skipped."
            let skippedLines = skipped.map { "SKIPPED \($0): takes runtime arguments" }
            return ([summary] + failures.map(\.description) + skippedLines).joined(separator: "\n")
        }
    }
}
