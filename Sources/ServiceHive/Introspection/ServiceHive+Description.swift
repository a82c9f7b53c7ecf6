extension ServiceHive: CustomStringConvertible {
    /// A table of this hive's registrations, sorted by service:
    ///
    /// ```text
    /// ServiceHive: 2 registrations
    /// Service       Name     Scope      Arguments  Module  Registered at
    /// Pricing       -        singleton  -          Trade   TradeModule/TradeModule.swift:31
    /// Pricing       premium  singleton  -          Trade   TradeModule/TradeModule.swift:32
    /// ```
    public var description: String {
        let rows = registrations.sorted().map { registration in
            [
                registration.service,
                registration.name ?? "-",
                registration.scopeDescription,
                registration.argumentTypes.isEmpty ? "-" : registration.argumentTypes.joined(separator: ", "),
                registration.module ?? "-",
                "\(registration.site.fileID):\(registration.site.line)",
            ]
        }
        let count = rows.count == 1 ? "1 registration" : "\(rows.count) registrations"
        let header = ["Service", "Name", "Scope", "Arguments", "Module", "Registered at"]
        return (["ServiceHive: \(count)"] + Self.table([header] + rows)).joined(separator: "\n")
    }

    /// Rows of cells as lines of left-aligned columns, two spaces apart.
    static func table(_ rows: [[String]]) -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (column, cell) in row.enumerated() {
                if column < widths.count {
                    widths[column] = max(widths[column], cell.count)
                } else {
                    widths.append(cell.count)
                }
            }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line +=
                    column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }
    }
}
