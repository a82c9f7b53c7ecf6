extension ServiceHive {
    /// A service that is resolved the first time it is used, then kept.
    ///
    /// Resolve one like any service, with no registration of its own:
    ///
    /// ```swift
    /// try hive.register(Reporter.self, scope: .singleton) { r in
    ///     LiveReporter(clock: try r.resolve(ServiceHive.Lazy<Clock>.self))
    /// }
    /// let time = try reporter.clock.instance.now  // resolves Clock here, once
    /// ```
    ///
    /// A lazy dependency breaks a construction cycle: the service holding it is built without resolving it. It
    /// resolves from the hive it came from, seeing the overrides of the task that first reads ``instance``, at that
    /// moment, as a direct resolve there would. It is safe to share across threads: when two threads read it first at
    /// the same time, both may resolve, one instance is kept, and both get the kept one.
    public struct Lazy<Service> {
        private let cell: Cell

        init(core: HiveCore, key: RegistrationKey) {
            cell = Cell(core: core, key: key)
        }

        /// The service: resolved on the first read, the same instance on every later one.
        ///
        /// - Throws: A ``ServiceHiveError``, as ``ServiceHive/Resolving/resolve(_:name:)`` does, while nothing is kept.
        public var instance: Service {
            get throws {
                // Safe: only this getter fills the cell, with a `Box<Service>`.
                if let kept = cell.instance.withLock({ $0 }) {
                    return unsafeDowncast(kept, to: Box<Service>.self).value
                }
                let resolved = Box<Service>(try cell.core.resolve(cell.key) as Service)
                let kept = cell.instance.withLock { kept in
                    if kept == nil { kept = resolved }
                    return kept.unsafelyUnwrapped
                }
                return unsafeDowncast(kept, to: Box<Service>.self).value
            }
        }

        /// Where a lazy service comes from, and what it keeps.
        private final class Cell: Sendable {
            let core: HiveCore
            let key: RegistrationKey
            /// Guards, and only guards, the kept instance.
            let instance = Locked<Instance?>(nil)

            init(core: HiveCore, key: RegistrationKey) {
                self.core = core
                self.key = key
            }
        }
    }
}

extension ServiceHive.Lazy: Sendable where Service: Sendable {}

extension ServiceHive.Lazy: DeferredService {
    static func deferred(from core: HiveCore, key: RegistrationKey) -> Self {
        Self(core: core, key: RegistrationKey(Service.self, name: key.name, requiresSendable: key.requiresSendable))
    }
}
