extension ServiceHive {
    /// Exposes a registration under another type as well: one instance, several protocols.
    ///
    /// ```swift
    /// try hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
    /// try hive.forward(Reader.self, to: LiveStore.self) { $0 }
    /// try hive.forward(Writer.self, to: LiveStore.self) { $0 }
    ///
    /// let reader = try hive.resolve(Reader.self)  // the LiveStore singleton
    /// ```
    ///
    /// The closure converts the target to the forwarded type, and `{ $0 }` is all it takes: the compiler then checks
    /// that the target conforms, which Swift cannot check at run time for a protocol. A forwarded key resolves the
    /// target as the resolving hive would at that moment, so it shares the target's instance and lifetime, follows an
    /// override of the target, and from a child that registers the target itself, resolves the child's. When the
    /// target's instance is shared, the converted instance is kept beside the forwarded key, so a later resolve costs
    /// what the target's does; it goes when the target's instance goes, by a reset or a failed install. It is a
    /// registration of its own: ``registrations`` lists it, ``validate(_:)`` checks it, and it can be overridden on its
    /// own. Unregistering the target removes it too.
    ///
    /// - Parameters:
    ///   - service: The type to expose, usually a protocol.
    ///   - name: A name for the exposed registration, or `nil`.
    ///   - target: The registered type, in this hive.
    ///   - targetName: The target registration's name, or `nil`.
    ///   - file: The file, recorded for errors and introspection.
    ///   - line: The line.
    ///   - convert: Converts the target to `service`; `{ $0 }` for a type that conforms.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when `service` and `name` are taken here;
    ///   ``ServiceHiveError/registrationRefused(_:reason:fix:)`` when this hive has no registration of the target.
    public func forward<Service, Target>(
        _ service: Service.Type,
        name: String? = nil,
        to target: Target.Type,
        named targetName: String? = nil,
        file: String = #fileID,
        line: UInt = #line,
        as convert: @escaping @Sendable (Target) -> Service
    ) throws {
        try forward(
            Service.self, name: name, to: Target.self, named: targetName,
            site: RegistrationSite(fileID: file, line: line),
            sendable: .unknown, as: convert)
    }

    /// Adds a forwarded registration; both `forward` overloads come here.
    func forward<Service, Target>(
        _: Service.Type,
        name: String?,
        to _: Target.Type,
        named targetName: String?,
        site: RegistrationSite,
        sendable: Sendability,
        as convert: @escaping @Sendable (Target) -> Service
    ) throws(ServiceHiveError) {
        let targetKey = RegistrationKey(Target.self, name: targetName)
        let recorder = InstallRecorder.current.flatMap { $0.hive === self ? $0 : nil }
        guard
            family.withLock({ state in state.withRegistry(id) { $0.contains(targetKey) } ?? false })
                || recorder?.staged(targetKey) != nil
        else {
            throw .registrationRefused(
                ServiceKey(Service.self, name: name),
                reason: "the target \(ServiceKey(Target.self, name: targetName)) is not registered in this hive",
                fix: "register \(typeName(Target.self)) in this hive first, then forward to it")
        }
        try add(site: site) { site in
            Entry(
                Service.self, name: name, scope: .transient, site: site,
                factory: Maker(
                    { resolver, _ in convert(try resolver.resolve(Target.self, name: targetName)) },
                    // Safe: the quick path passes only the instance cached for the target, a `Box<Target>`.
                    forward: { convert(unsafeDowncast($0, to: Box<Target>.self).value) }),
                target: (targetKey, ServiceKey(Target.self, name: targetName)), sendable: sendable)
        }
    }
}
