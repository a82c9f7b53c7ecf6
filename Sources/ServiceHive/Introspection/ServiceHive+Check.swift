extension ServiceHive {
    /// Checks the dependencies that registrations declare, building nothing, and reports every problem at once.
    ///
    /// ```swift
    /// try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init)
    /// let report = hive.check()
    /// for problem in report.problems { print(problem) }
    /// ```
    ///
    /// A registration by initializer declares its parameters as its dependencies, and a closure registration may
    /// declare its own with `dependsOn:`. The check reads those declarations, and runs no factory, so it costs
    /// microseconds and has no side effects. It reports, each with the registration's site and the parameter:
    ///
    /// - ``ServiceHiveError/unmetDependency(_:parameter:needs:site:suggestions:)``: a dependency that nothing registers,
    ///   with the registrations it may have meant;
    /// - ``ServiceHiveError/dependencyCycle(path:parameters:sites:)``: a cycle, drawn as its path;
    /// - ``ServiceHiveError/captiveDependency(_:scope:parameter:path:lifetime:site:)``: a shared instance that would hold
    ///   something shorter-lived: a named-scope or `.weak` service, or one that only child hives provide.
    ///
    /// It checks what this hive can resolve: its own registrations and its ancestors' that it does not shadow, each
    /// dependency looked up as the hive would look it up. Check a child hive to check what a request resolves: a
    /// singleton of the parent that needs a service the child provides is a captive dependency.
    ///
    /// Registrations whose factory is a closure without `dependsOn:` are listed in ``CheckReport/unchecked``: the
    /// check cannot see into them. ``validate(_:)`` builds them, and is the check for those.
    ///
    /// The check sees one consistent state of the hive: it copies what it reads under the hive's lock, then checks
    /// without holding it, so registering on another thread meanwhile neither blocks nor confuses it.
    ///
    /// - Returns: The report.
    public func check() -> CheckReport {
        GraphCheck(snapshot: GraphSnapshot(of: core)).report
    }

    /// What ``ServiceHive/check()`` found.
    public struct CheckReport: Sendable, CustomStringConvertible {
        /// Every problem, each an error whose description names the registration, the parameter and a fix:
        /// unmet dependencies first, then cycles, then captive dependencies, each group in registration order.
        public var problems: [ServiceHiveError]
        /// The registrations the check could not see into: factories written as closures without `dependsOn:`.
        public var unchecked: [Registration]
        /// How many registrations declared their dependencies, and were checked.
        public var checked: Int

        /// Whether the check found no problem. Unchecked registrations are not problems.
        public var isClean: Bool { problems.isEmpty }

        /// One line per problem, then the count of checked and unchecked registrations.
        public var description: String {
            let summary = "\(checked) checked, \(unchecked.count) unchecked (closures without dependsOn:)"
            return (problems.map { "error: \($0)" } + [summary]).joined(separator: "\n")
        }
    }
}
