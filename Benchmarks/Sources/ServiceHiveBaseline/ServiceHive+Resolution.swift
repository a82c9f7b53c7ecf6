extension ServiceHive {
    /// Resolves a service registered without arguments.
    ///
    /// ```swift
    /// let trade: any TradeService = try hive.resolve()
    /// let same = try hive.resolve(TradeService.self)
    /// let premium = try hive.resolve(TradeService.self, name: "premium")
    /// ```
    ///
    /// The hive looks in the innermost active override scope first, then its own registrations, then its
    /// parent's. A cached `.singleton` costs one lock and one dictionary lookup, and allocates nothing.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance, as the scope of its registration says.
    /// - Throws: ``ServiceHiveError/notRegistered(_:chain:)`` when nothing is registered;
    ///   ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when the registration needs arguments;
    ///   ``ServiceHiveError/circularDependency(_:)``, ``ServiceHiveError/factoryFailed(_:chain:underlying:)``,
    ///   ``ServiceHiveError/weakRequiresClass(_:instanceType:)`` or
    ///   ``ServiceHiveError/resolutionTooDeep(_:chain:limit:)`` when building fails.
    public func resolve<Service>(
        _ service: Service.Type = Service.self,
        name: String? = nil
    ) throws(ServiceHiveError) -> Service {
        try resolveService(Service.self, name: name)
    }

    /// Resolves a service registered with runtime arguments.
    ///
    /// ```swift
    /// let greeter = try hive.resolve(Greeter.self, arguments: "Mimi")
    /// let premium = try hive.resolve(Greeter.self, name: "formal", arguments: "Mimi", 3)
    /// ```
    ///
    /// The argument types must be exactly those of the registration, in order.
    ///
    /// - Parameters:
    ///   - service: The type to resolve. It can be inferred from the context.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: The values passed to the factory.
    /// - Returns: A new instance.
    /// - Throws: ``ServiceHiveError/argumentMismatch(_:registered:chain:)`` when the service is registered with
    ///   other argument types, and the errors of ``resolve(_:name:)``.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ServiceHiveError) -> Service {
        guard let signature = ArgumentPack.signature(repeat (each Argument).self) else {
            return try resolve(Service.self, name: name)
        }
        let layout = ArgumentPack.layout(repeat (each Argument).self)
        return try ArgumentPack.withBuffer(byteCount: layout.byteCount, alignment: layout.alignment) {
            (values) throws(ServiceHiveError) -> Service in
            ArgumentPack.store(repeat each arguments, in: values)
            defer { ArgumentPack.destroy(repeat (each Argument).self, in: values) }
            return try resolveService(
                Service.self,
                name: name,
                arguments: signature,
                argumentValues: UnsafeRawPointer(values),
                argumentTypes: { ArgumentPack.types(repeat (each Argument).self) },
                argumentsMatch: { ArgumentPack.matches($0, repeat (each Argument).self) }
            )
        }
    }
}
