extension ServiceHive {
    /// This hive's own registrations, in the order they were made. A parent's are on the parent; see
    /// ``visibleRegistrations`` for everything this hive can resolve.
    public var registrations: [Registration] {
        family.withLock { state in state.withRegistry(id) { $0.records } ?? [] }
            .sorted { $0.sequence < $1.sequence }.map(\.entry.registration)
    }

    /// Every registration this hive can resolve: its own, then each ancestor's that none nearer shadows, nearest
    /// hive first, each in the order it was made.
    ///
    /// ```swift
    /// let request = app.child { $0.provide(Session.self, session) }
    /// request.visibleRegistrations.map(\.service)  // ["Session", "Cart", "TradeService", …]
    /// ```
    public var visibleRegistrations: [Registration] {
        visibleRecords.map(\.entry.registration)
    }

    /// The records this hive can resolve, nearest hive first, each hive's in registration order.
    var visibleRecords: [Record] {
        family.withLock { state in
            var seen: Set<RegistrationKey> = []
            var visible: [Record] = []
            for id in lineage {
                let records = state.hives[id.index].registry.records.sorted { $0.sequence < $1.sequence }
                for record in records where seen.insert(record.entry.key).inserted { visible.append(record) }
            }
            return visible
        }
    }
}

extension Entry {
    /// The public description of this registration.
    var registration: ServiceHive.Registration {
        ServiceHive.Registration(
            key: serviceKey, scope: scope, site: site, forwardsTo: targetServiceKey, isAsync: isAsync)
    }
}
