extension ServiceHive {
    /// One registration of a hive, as ``ServiceHive/registrations`` lists it.
    ///
    /// ```swift
    /// for registration in hive.registrations {
    ///     print(registration)  // TradeService (name: "premium"), singleton, module Trade, at Trade/Module.swift:24
    /// }
    /// ```
    public struct Registration: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The service, its name and its argument types.
        public var key: ServiceKey
        /// How long the hive keeps what the registration builds.
        public var scope: Scope
        /// Where the registration was made, and by which module.
        public var site: RegistrationSite

        /// Creates a description of a registration.
        ///
        /// - Parameters:
        ///   - key: The service, its name and its argument types.
        ///   - scope: The registration's scope.
        ///   - site: Where the registration was made.
        public init(key: ServiceKey, scope: Scope, site: RegistrationSite) {
            self.key = key
            self.scope = scope
            self.site = site
        }

        /// The service type's name.
        public var service: String { key.service }
        /// The registration's name, or `nil`.
        public var name: String? { key.name }
        /// The names of the runtime argument types, in order.
        public var argumentTypes: [String] { key.argumentTypes }
        /// The name of the module that made the registration, or `nil`.
        public var module: String? { site.module }

        /// `TradeService (name: "premium"), singleton, module Trade, at Trade/TradeModule.swift:24`.
        public var description: String {
            let module = site.module.map { ", module \($0)" } ?? ""
            return "\(key), \(scope)\(module), at \(site.fileID):\(site.line)"
        }

        /// Orders registrations by key, then by where they were made.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            if lhs.site.fileID != rhs.site.fileID { return lhs.site.fileID < rhs.site.fileID }
            return lhs.site.line < rhs.site.line
        }
    }

    /// This hive's own registrations, in the order they were made. A parent's are on the parent.
    public var registrations: [Registration] {
        let entries = state.lock.withLock { state.registry.pointee.allEntries }
        return entries.sorted { $0.sequence < $1.sequence }.map(\.registration)
    }
}

extension Entry {
    /// The public description of this registration.
    var registration: ServiceHive.Registration {
        ServiceHive.Registration(key: serviceKey, scope: scope, site: site)
    }
}

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
                registration.scope.description,
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
