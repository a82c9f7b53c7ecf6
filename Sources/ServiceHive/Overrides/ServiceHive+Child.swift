extension ServiceHive {
    /// Makes a child hive with a few instances of its own: the way to scope services to one request.
    ///
    /// ```swift
    /// let request = app.child { $0.provide(Session.self, session) }
    /// let cart = try request.resolve(Cart.self)  // built with this request's Session
    /// ```
    ///
    /// It cannot fail, so a request handler needs no `try` to make one. Within one `provide` closure, providing the
    /// same service and name twice keeps the last. The child behaves as one made with ``init(parent:)``: it looks in
    /// its own instances first, then in this hive, and a singleton of this hive never captures its instances. Making
    /// one and resolving from it costs about two microseconds; see `Benchmarks/README.md` in the repository.
    ///
    /// When a resolve from this hive misses a service that children provide, the error says to resolve it from the
    /// child.
    ///
    /// - Parameter provide: Provides the child's instances.
    /// - Returns: The child hive.
    public func child(_ provide: (inout Provisions) -> Void = { _ in }) -> ServiceHive {
        var provisions = Provisions()
        provide(&provisions)
        let entries = provisions.entries
        // The child's place and its instances in one acquisition of the lock (`Benchmarks/count-instructions 12`).
        return ServiceHive(parent: self) { state, child in
            for entry in entries {
                state.providedByChildren.update(entry.key.service, empty: { true }) { _ in }
                let sequence = state.takeSequence()
                _ = state.hives[child.index].registry.remove(entry.key)  // A later one replaces an earlier one.
                state.hives[child.index].registry.insert(Record(entry: entry, sequence: sequence))
            }
        }
    }

    /// The instances of a child hive made with ``ServiceHive/child(_:)``.
    public struct Provisions {
        /// The instances, in the order provided; a later one replaces an earlier one of the same key.
        var entries: [Entry] = []

        init() {}

        /// Provides `instance` as `service` in the child.
        ///
        /// - Parameters:
        ///   - service: The type callers resolve, usually a protocol.
        ///   - name: A name that tells variants of the same service apart, or `nil`.
        ///   - instance: The instance every resolve in the child returns.
        ///   - file: The file, recorded for introspection.
        ///   - line: The line.
        public mutating func provide<Service>(
            _ service: Service.Type, name: String? = nil, _ instance: Service, file: String = #fileID,
            line: UInt = #line
        ) {
            provide(
                Service.self, name: name, instance, site: RegistrationSite(fileID: file, line: line), sendable: .unknown
            )
        }

        mutating func provide<Service>(
            _: Service.Type, name: String?, _ instance: Service, site: RegistrationSite, sendable: Sendability
        ) {
            entries.append(Entry(Service.self, name: name, instance: instance, site: site, sendable: sendable))
        }
    }
}
