extension ServiceHive {
    /// The printable identity of a registration: the service type, its name and its argument types.
    ///
    /// Errors, introspection and validation reports use it to say which registration they mean. Two keys are
    /// equal when their type names, names and argument type names are equal.
    ///
    /// ```swift
    /// let key = ServiceHive.ServiceKey(TradeService.self, name: "premium")
    /// print(key)  // TradeService (name: "premium")
    /// ```
    public struct ServiceKey: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The service type's name, such as `TradeService`.
        public var service: String
        /// The registration's name, or `nil` for the unnamed registration.
        public var name: String?
        /// The names of the runtime argument types, in order; empty when the registration takes none.
        public var argumentTypes: [String]
        /// For the key of a contribution, made with `contribute`, where it was contributed; `nil` for the key of a
        /// registration.
        ///
        /// Part of the key's identity, with the name: the contributions to one collection need no name, so the site is
        /// what tells them apart in errors, ``ServiceHive/registrations`` and the dependency graph.
        public var contributionSite: RegistrationSite? {
            get { details?.contributionSite }
            set { details = Details(newValue, details?.element, details?.notes ?? LookupNotes()) }
        }
        /// For the key of a collection, such as `[HealthCheck]`: the name of its element type. Not part of the key's
        /// identity, which `service` already makes distinct.
        var collectionOf: String? { details?.element }
        /// What a failed lookup saw nearby, for the error message. Not part of the key's identity.
        var notes: LookupNotes {
            get { details?.notes ?? LookupNotes() }
            set { details = Details(details?.contributionSite, details?.element, newValue) }
        }
        /// What a key says besides its service, name and arguments: one reference, `nil` for most keys, since keys are
        /// copied into every trace and every chain (`Benchmarks/count-instructions 19c`: 4,214 instructions with these
        /// fields in place, 3,256 with them here).
        private var details: Details?

        /// What a key says besides its service, name and arguments.
        private final class Details: Sendable {
            let contributionSite: RegistrationSite?
            let element: String?
            let notes: LookupNotes

            init(_ contributionSite: RegistrationSite?, _ element: String?, _ notes: LookupNotes) {
                self.contributionSite = contributionSite
                self.element = element
                self.notes = notes
            }
        }

        /// Creates a key from type names.
        ///
        /// - Parameters:
        ///   - service: The service type's name.
        ///   - name: The registration's name, or `nil`.
        ///   - argumentTypes: The argument types' names, in order.
        public init(service: String, name: String? = nil, argumentTypes: [String] = []) {
            self.service = service
            self.name = name
            self.argumentTypes = argumentTypes
        }

        /// Creates the key of a service type with an optional name and no arguments.
        ///
        /// - Parameters:
        ///   - service: The service type, usually a protocol.
        ///   - name: The registration's name, or `nil`.
        public init<Service>(_ service: Service.Type, name: String? = nil) {
            self.init(service: typeName(service), name: name)
        }

        /// The key a resolve of `key` as a `Service` asks for, as its trace names it. Inlined into the traced resolve:
        /// called, `Benchmarks/count-instructions 19c` costs 3,382 instructions, not 3,285.
        @inline(__always)
        init<Service>(_: Service.Type, _ key: RegistrationKey) {
            self.init(service: typeName(Service.self), name: key.name)
        }

        /// The key of a contribution to the collection of `service`, with the name it was given, if any.
        init(contributionTo service: String, name: String?, site: RegistrationSite) {
            self.init(service: service, name: name)
            contributionSite = site
        }

        /// The key of the collection of `element`, printed as `[Element]`.
        init(collectionOf element: String) {
            self.init(service: "[\(element)]")
            details = Details(nil, element, LookupNotes())
        }

        /// The key as ServiceHive prints it: `TradeService`, `TradeService (name: "premium")`,
        /// `Greeter (arguments: String)`; for a contribution, `HealthCheck (contribution "db", at Orders/Module.swift:12)`
        /// or, without a name, `HealthCheck (contribution at Orders/Module.swift:12)`.
        public var description: String {
            if let site = contributionSite {
                let at = "at \(site.fileID):\(site.line)"
                return name.map { "\(service) (contribution \"\($0)\", \(at))" } ?? "\(service) (contribution \(at))"
            }
            var details: [String] = []
            if let name { details.append("name: \"\(name)\"") }
            if !argumentTypes.isEmpty { details.append("arguments: \(argumentTypes.joined(separator: ", "))") }
            return details.isEmpty ? service : "\(service) (\(details.joined(separator: ", ")))"
        }

        /// The key without a contribution's site: `HealthCheck (contribution "db")`, or `HealthCheck (contribution)`
        /// without a name; a registration's key as it prints.
        var withoutSite: String {
            guard contributionSite != nil else { return description }
            return name.map { "\(service) (contribution \"\($0)\")" } ?? "\(service) (contribution)"
        }

        /// Whether two keys name the same service, name, argument types and, for contributions, site.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.service == rhs.service && lhs.name == rhs.name && lhs.argumentTypes == rhs.argumentTypes
                && lhs.contributionSite == rhs.contributionSite
        }

        /// Hashes the service, name, argument types and contribution site.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(service)
            hasher.combine(name)
            hasher.combine(argumentTypes)
            hasher.combine(contributionSite)
        }

        /// Orders keys by service name, then name (unnamed first), then argument types; registrations before
        /// contributions, and contributions by site.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.service != rhs.service { return lhs.service < rhs.service }
            switch (lhs.name, rhs.name) {
            case (nil, .some): return true
            case (.some, nil): return false
            case let (left?, right?) where left != right: return left < right
            default: break
            }
            if lhs.argumentTypes != rhs.argumentTypes {
                return lhs.argumentTypes.lexicographicallyPrecedes(rhs.argumentTypes)
            }
            switch (lhs.contributionSite, rhs.contributionSite) {
            case (nil, .some): return true
            case let (left?, right?) where left.fileID != right.fileID: return left.fileID < right.fileID
            case let (left?, right?): return left.line < right.line
            default: return false
            }
        }
    }
}

extension Array where Element == ServiceHive.ServiceKey {
    /// The chain as `A → B → C`, abbreviated in the middle when it is longer than 12 links.
    var chainDescription: String {
        guard count > 12 else { return map(\.description).joined(separator: " → ") }
        let head = prefix(5).map(\.description)
        let tail = suffix(5).map(\.description)
        return (head + ["… \(count - 10) more …"] + tail).joined(separator: " → ")
    }
}
