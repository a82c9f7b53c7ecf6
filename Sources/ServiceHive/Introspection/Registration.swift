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
        /// For a key made with ``ServiceHive/forward(_:name:to:named:file:line:as:)``: the registration it forwards to.
        public var forwardsTo: ServiceKey?
        /// Whether the factory is `async`, so that only ``ServiceHive/Resolving/resolveAsync(_:name:)`` builds it.
        public var isAsync: Bool

        /// Creates a description of a registration.
        ///
        /// - Parameters:
        ///   - key: The service, its name and its argument types.
        ///   - scope: The registration's scope.
        ///   - site: Where the registration was made.
        ///   - forwardsTo: The registration a forwarded key forwards to, or `nil`.
        ///   - isAsync: Whether the factory is `async`.
        public init(
            key: ServiceKey,
            scope: Scope,
            site: RegistrationSite,
            forwardsTo: ServiceKey? = nil,
            isAsync: Bool = false
        ) {
            self.key = key
            self.scope = scope
            self.site = site
            self.forwardsTo = forwardsTo
            self.isAsync = isAsync
        }

        /// The service type's name.
        public var service: String { key.service }
        /// The registration's name, or `nil`.
        public var name: String? { key.name }
        /// The names of the runtime argument types, in order.
        public var argumentTypes: [String] { key.argumentTypes }
        /// The name of the module that made the registration, or `nil`.
        public var module: String? { site.module }

        /// Whether this is a contribution to the collection of its service, made with `contribute`, rather than a
        /// registration of the service.
        public var isContribution: Bool { key.contributionSite != nil }

        /// `TradeService (name: "premium"), singleton, module Trade, at Trade/TradeModule.swift:24`; a forwarded key
        /// says `forwards to LiveStore` in place of its scope, an async factory adds `async`, and a contribution reads
        /// `HealthCheck (contribution "database"), singleton, contribution, module Orders, at Orders/Module.swift:9`.
        public var description: String {
            let module = site.module.map { ", module \($0)" } ?? ""
            return "\(key.withoutSite), \(scopeDescription)\(module), at \(site.fileID):\(site.line)"
        }

        /// The scope as the listings show it: `singleton`, `singleton, async`, `singleton, contribution`, or
        /// `forwards to LiveStore`.
        var scopeDescription: String {
            if let forwardsTo { return "forwards to \(forwardsTo)" }
            return "\(scope)" + (isAsync ? ", async" : "") + (isContribution ? ", contribution" : "")
        }

        /// Orders registrations by key, then by where they were made.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            if lhs.site.fileID != rhs.site.fileID { return lhs.site.fileID < rhs.site.fileID }
            return lhs.site.line < rhs.site.line
        }
    }
}
