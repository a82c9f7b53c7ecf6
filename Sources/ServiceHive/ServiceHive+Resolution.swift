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
        try resolveService(Service.self, name: name, arguments: nil, argumentValues: nil, argumentTypes: { [] })
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
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ServiceHiveError) -> Service {
        let signature = ArgumentSignature.of(repeat (each Argument).self)
        let values = (repeat each arguments)
        return try withUnsafePointer(to: values) { pointer throws(ServiceHiveError) in
            try resolveService(
                Service.self,
                name: name,
                arguments: signature,
                argumentValues: UnsafeRawPointer(pointer),
                argumentTypes: { ArgumentSignature.types(repeat (each Argument).self) }
            )
        }
    }
}
