import ServiceHive

extension ServiceHive.Trace {
    /// The tree, drawn as ``description`` draws it but without timings, so that it prints the same lines every run:
    /// each service, its scope, and whether it was built, found cached, or failed.
    ///
    /// A forwarded key shows the registration it forwards to, as the registry does: the trace gives it the scope of
    /// its own entry, `transient`, though it shares its target's instance and builds nothing.
    ///
    /// - Parameter hive: The hive whose registrations say which keys are forwarded.
    /// - Returns: One line per service.
    func untimedLines(in hive: ServiceHive) -> [String] {
        let forwards = Dictionary(
            hive.visibleRegistrations.compactMap { registration in
                registration.forwardsTo.map { (registration.key, $0) }
            },
            uniquingKeysWith: { first, _ in first })
        return Self.untimedLines(of: root, forwards: forwards, prefix: "", childPrefix: "")
    }

    private static func untimedLines(
        of node: Node,
        forwards: [ServiceHive.ServiceKey: ServiceHive.ServiceKey],
        prefix: String,
        childPrefix: String
    ) -> [String] {
        let outcome =
            switch node.outcome {
            case .built: "built"
            case .cached: "cached"
            case .failed: "failed"
            }
        let line =
            if let target = forwards[node.key], node.outcome != .failed {
                "\(node.key) (forwards to \(target))"
            } else {
                "\(node.key)\(node.scope.map { " (\($0))" } ?? "") \(outcome)"
            }
        var lines = [prefix + line]
        for (index, child) in node.children.enumerated() {
            let isLast = index == node.children.count - 1
            lines += untimedLines(
                of: child, forwards: forwards, prefix: childPrefix + (isLast ? "└─ " : "├─ "),
                childPrefix: childPrefix + (isLast ? "   " : "│  "))
        }
        return lines
    }
}
