import ServiceHive

/// Swapping a component, or one of its commands, in a test, in the builder of `withOverrides`.
extension ServiceHive.Overrides {
    // MARK: - Overriding components

    /// Registers a component in place of the hive's component of the same name: every command of the component is
    /// this one's.
    ///
    /// ```swift
    /// hive.withOverrides {
    ///     $0.registerComponent("trade") { component in
    ///         component.command("quote") { _ in ["total": 0] }
    ///     }
    /// } operation: {
    ///     let reply = try hive.call("trade", "quote")
    /// }
    /// ```
    ///
    /// It replaces everything this builder registered before for the component: an earlier component of the name,
    /// and the commands of it registered one by one.
    ///
    /// - Precondition: The component's name and its commands' names are valid, and no command is declared twice; see
    ///   ``ServiceHive/registerComponent(_:file:line:commands:)``.
    ///
    /// - Parameters:
    ///   - name: The component's name.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - commands: Declares the component's commands.
    public mutating func registerComponent(
        _ name: String, file: String = #fileID, line: UInt = #line,
        commands: (inout ServiceHive.ComponentBuilder<Void>) -> Void
    ) {
        register(replacing: registrations(ofComponent: name), file: file, line: line) {
            try $0.registerComponent(name, file: file, line: line, commands: commands)
        }
    }

    /// Registers a component whose commands work on an object that the hive builds, in place of the hive's
    /// component of the same name.
    ///
    /// - Precondition: The names are valid, and no command is declared twice.
    ///
    /// - Parameters:
    ///   - name: The component's name.
    ///   - scope: How long the hive keeps the object.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - object: Builds the object from its dependencies.
    ///   - commands: Declares the component's commands.
    public mutating func registerComponent<Object: Sendable>(
        _ name: String, scope: ServiceHive.Scope = .singleton, file: String = #fileID, line: UInt = #line,
        object: @escaping @Sendable (ServiceHive.Resolver) throws -> Object,
        commands: (inout ServiceHive.ComponentBuilder<Object>) -> Void
    ) {
        register(replacing: registrations(ofComponent: name, object: Object.self), file: file, line: line) {
            try $0.registerComponent(name, scope: scope, file: file, line: line, object: object, commands: commands)
        }
    }

    /// Registers a component whose commands work on an object that exists already, in place of the hive's
    /// component of the same name.
    ///
    /// - Precondition: The names are valid, and no command is declared twice.
    ///
    /// - Parameters:
    ///   - name: The component's name.
    ///   - instance: The object, evaluated once, when you register.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - commands: Declares the component's commands.
    public mutating func registerComponent<Object: Sendable>(
        _ name: String, instance: @autoclosure () -> Object, file: String = #fileID, line: UInt = #line,
        commands: (inout ServiceHive.ComponentBuilder<Object>) -> Void
    ) {
        let instance = instance()
        register(replacing: registrations(ofComponent: name, object: Object.self), file: file, line: line) {
            try $0.registerComponent(name, instance: instance, file: file, line: line, commands: commands)
        }
    }

    // MARK: - Overriding one command

    /// Registers the implementation of one command of a component, in place of the one it declared; the component's
    /// other commands stay as they are.
    ///
    /// ```swift
    /// $0.registerCommand("quote", of: "trade") { call in ["total": 0] }
    /// ```
    ///
    /// - Precondition: Both names are valid; see ``ServiceHive/registerCommand(_:of:reachableByURL:file:line:_:)-63lim``.
    ///
    /// - Parameters:
    ///   - name: The command's name.
    ///   - component: The name of the component that declares it.
    ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run this implementation. By default, `nil`: as
    ///     the command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    public mutating func registerCommand(
        _ name: String, of component: String, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (ServiceHive.ComponentCall) throws -> ServiceHive.ComponentReply
    ) {
        register(replacing: [Self.registration(ofCommand: name, of: component)], file: file, line: line) {
            try $0.registerCommand(name, of: component, reachableByURL: reachableByURL, file: file, line: line, handler)
        }
    }

    /// Registers an `async` implementation of one command of a component, in place of the one it declared.
    ///
    /// - Precondition: Both names are valid.
    ///
    /// - Parameters:
    ///   - name: The command's name.
    ///   - component: The name of the component that declares it.
    ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run this implementation. By default, `nil`: as
    ///     the command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    public mutating func registerCommand(
        _ name: String, of component: String, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (ServiceHive.ComponentCall) async throws -> ServiceHive.ComponentReply
    ) {
        register(replacing: [Self.registration(ofCommand: name, of: component)], file: file, line: line) {
            try $0.registerCommand(name, of: component, reachableByURL: reachableByURL, file: file, line: line, handler)
        }
    }

    /// Registers a typed implementation of one command, in place of the one its component declared.
    ///
    /// ```swift
    /// $0.registerCommand(.tradeQuote) { request, call in QuoteReply(total: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run this implementation. By default, `nil`: as
    ///     the command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    public mutating func registerCommand<Input, Output>(
        _ command: ServiceHive.Command<Input, Output>, reachableByURL: Bool? = nil, file: String = #fileID,
        line: UInt = #line, _ handler: @escaping @Sendable (Input, ServiceHive.ComponentCall) throws -> Output
    ) {
        register(replacing: [Self.registration(ofCommand: command.name, of: command.component)], file: file, line: line)
        {
            try $0.registerCommand(command, reachableByURL: reachableByURL, file: file, line: line, handler)
        }
    }

    /// Registers a typed `async` implementation of one command, in place of the one its component declared.
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run this implementation. By default, `nil`: as
    ///     the command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    public mutating func registerCommand<Input, Output>(
        _ command: ServiceHive.Command<Input, Output>, reachableByURL: Bool? = nil, file: String = #fileID,
        line: UInt = #line, _ handler: @escaping @Sendable (Input, ServiceHive.ComponentCall) async throws -> Output
    ) {
        register(replacing: [Self.registration(ofCommand: command.name, of: command.component)], file: file, line: line)
        {
            try $0.registerCommand(command, reachableByURL: reachableByURL, file: file, line: line, handler)
        }
    }

    // MARK: - What a registration replaces

    /// The registration of one command's implementation.
    private static func registration(ofCommand name: String, of component: String) -> (service: Any.Type, name: String?)
    {
        (ComponentCommand.self, ComponentNames.key(component, name))
    }

    /// Everything this builder registered for a component: the component, its commands, declared or registered one by
    /// one, and its object, of type `object`.
    private func registrations(
        ofComponent name: String, object: Any.Type? = nil
    ) -> [(service: Any.Type, name: String?)] {
        let prefix = ComponentNames.key(name, "")
        let commands = registeredNames(of: ComponentCommand.self).compactMap { $0 }.filter { $0.hasPrefix(prefix) }
        return [(Component.self, name)] + commands.map { (ComponentCommand.self, $0) }
            + (object.map { [($0, name)] } ?? [])
    }
}
