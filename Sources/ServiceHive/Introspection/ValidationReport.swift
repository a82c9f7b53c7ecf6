extension ServiceHive {
    /// The outcome of ``validate(_:)``.
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
        /// The registrations that validation could not try: those that take runtime arguments it has no samples for,
        /// and, for ``ServiceHive/validate(_:)``, those with an async factory.
        public var skipped: [Registration]
        /// Who resolved whom, as validation built every registration.
        public var graph = DependencyGraph(nodes: [], edges: [])

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
            let skippedLines = skipped.map { registration in
                registration.isAsync
                    ? "SKIPPED \(registration): has an async factory; validateAsync() builds it"
                    : "SKIPPED \(registration): takes runtime arguments; give samples to validate it"
            }
            return ([summary] + failures.map(\.description) + skippedLines).joined(separator: "\n")
        }
    }
}
