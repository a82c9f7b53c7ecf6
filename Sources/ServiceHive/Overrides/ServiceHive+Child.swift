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
    /// one, resolving from it and releasing it takes well under a microsecond on one thread. Making and releasing a
    /// child, and resolving what it was given, take the lock of this hive's family, so threads that make children of
    /// one hive at the same moment wait for each other; see `Benchmarks/README.md` in the repository.
    ///
    /// When a resolve from this hive misses a service that children provide, the error says to resolve it from the
    /// child.
    ///
    /// - Parameter provide: Provides the child's instances.
    /// - Returns: The child hive.
    public func child(_ provide: (inout Provisions) -> Void = { _ in }) -> ServiceHive {
        var provisions = Provisions()
        provide(&provisions)
        return ServiceHive(parent: self, provided: provisions.provided)
    }

    /// The instances of a child hive made with ``ServiceHive/child(_:)``.
    public struct Provisions {
        /// The instances, in the order provided, each with a key of its own: a later one replaces an earlier one of
        /// the same key here. The child keeps them as they are, and makes no registration of them until something
        /// other than a resolve reads its registrations (`Provision.swift`).
        var provided: [Provision] = []

        init() {}

        /// The registrations of the instances, as the child would list them.
        var entries: [Entry] { provided.map { $0.entry() } }

        /// Provides `instance` as `service` in the child.
        ///
        /// - Parameters:
        ///   - service: The type callers resolve, usually a protocol.
        ///   - name: A name that tells variants of the same service apart, or `nil`.
        ///   - instance: The instance every resolve in the child returns.
        ///   - file: The file, recorded for introspection.
        ///   - line: The line.
        @inlinable
        public mutating func provide<Service>(
            _ service: Service.Type, name: String? = nil, _ instance: Service, file: String = #fileID,
            line: UInt = #line
        ) {
            provide(Service.self, name: name, Box(instance), file: file, line: line, declaredSendable: false)
        }

        /// Provides the instance in `box`. Inlinable callers box it, where its type is known (`Box.init(_:)`).
        @usableFromInline
        mutating func provide<Service>(
            _: Service.Type, name: String?, _ box: Box<Service>, file: String, line: UInt, declaredSendable: Bool
        ) {
            let provision = Provision(
                Service.self, name: name, box: box, site: RegistrationSite(fileID: file, line: line),
                sendable: declaredSendable ? .declared : .unknown)
            if let earlier = provided.firstIndex(where: { $0.key == provision.key }) {
                provided.remove(at: earlier)
            } else if provided.isEmpty {
                // Room for a server's request: the request's values, its logger and its caller. Grown one by one, the
                // array was made three times for three (`Benchmarks/count-instructions 12b`).
                provided.reserveCapacity(4)
            }
            provided.append(provision)
        }
    }
}
