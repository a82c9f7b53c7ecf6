import ServiceHive

extension ServiceHive {
    // MARK: - Registering one command

    /// Registers the implementation of one command of a component, in place of the one the component declared: the
    /// way to replace a single command in a test.
    ///
    /// ```swift
    /// try hive.withOverrides {
    ///     $0.registerCommand("quote", of: "trade") { call in ["total": 0] }
    /// } operation: {
    ///     let reply = try hive.call("trade", "quote")  // the replacement; the other commands are the real ones
    /// }
    /// ```
    ///
    /// A child hive may replace a command of its parent's component this way too. Only commands the component
    /// declares can be called, so a command it does not declare is never reached; to add commands, register the
    /// whole component again, in the child hive or in the override.
    ///
    /// - Parameters:
    ///   - name: The command's name.
    ///   - component: The name of the component that declares it.
    ///   - reachableByURL: Whether ``open(_:callback:)`` may run this implementation. By default, `nil`: as the
    ///     command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: ``ComponentError/invalidComponentName(_:)`` for a name that is not valid; the hive's
    ///   `ServiceHiveError.alreadyRegistered` when this hive already has an implementation of the command.
    public func registerCommand(
        _ name: String, of component: String, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall) throws -> ComponentReply
    ) throws {
        try addCommand(component, name, reachableByURL, file, line, .sync(handler))
    }

    /// Registers an `async` implementation of one command of a component, in place of the one it declared.
    ///
    /// - Parameters:
    ///   - name: The command's name.
    ///   - component: The name of the component that declares it.
    ///   - reachableByURL: Whether ``open(_:callback:)`` may run this implementation. By default, `nil`: as the
    ///     command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the synchronous form.
    public func registerCommand(
        _ name: String, of component: String, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall) async throws -> ComponentReply
    ) throws {
        try addCommand(component, name, reachableByURL, file, line, .async(handler))
    }

    /// Registers a typed implementation of one command, in place of the one its component declared.
    ///
    /// ```swift
    /// $0.registerCommand(.tradeQuote) { request, call in QuoteReply(total: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``open(_:callback:)`` may run this implementation. By default, `nil`: as the
    ///     command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the weak-typed form.
    public func registerCommand<Input, Output>(
        _ command: Command<Input, Output>, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (Input, ComponentCall) throws -> Output
    ) throws {
        try addCommand(command.component, command.name, reachableByURL, file, line, .sync(Command.body(handler)))
    }

    /// Registers a typed `async` implementation of one command, in place of the one its component declared.
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``open(_:callback:)`` may run this implementation. By default, `nil`: as the
    ///     command the component declares.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the weak-typed form.
    public func registerCommand<Input, Output>(
        _ command: Command<Input, Output>, reachableByURL: Bool? = nil, file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (Input, ComponentCall) async throws -> Output
    ) throws {
        try addCommand(command.component, command.name, reachableByURL, file, line, .async(Command.body(handler)))
    }

    // MARK: - The fallback

    /// Registers the handler of calls that nothing answers: a component or a command that does not exist, called by
    /// name or opened by URL. By default there is none, and such a call throws.
    ///
    /// ```swift
    /// try hive.registerComponentFallback { call, error in
    ///     log("\(error)")
    ///     return ["screen": "not-found"]
    /// }
    /// ```
    ///
    /// The handler receives the call as it was made, and the error the call would have thrown:
    /// ``ComponentError/componentNotFound(_:available:)`` or
    /// ``ComponentError/commandNotFound(component:command:available:)``. Its reply is the call's reply. It is not
    /// asked for a command that exists but is not reachable by URL.
    ///
    /// A hive has one fallback; a child hive inherits its parent's, and may register its own.
    ///
    /// - Parameters:
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Answers the call, or throws. A ``ComponentError``, such as the one it receives, and a
    ///     `ServiceHiveError` reach the caller as they are; any other error as
    ///     ``ComponentError/commandFailed(component:command:underlying:)``.
    /// - Throws: The hive's `ServiceHiveError.alreadyRegistered` when this hive already has a fallback.
    public func registerComponentFallback(
        file: String = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall, ComponentError) throws -> ComponentReply
    ) throws {
        try register(ComponentFallback.self, instance: ComponentFallback(handler), file: file, line: line)
    }

    // MARK: - Unregistering

    /// Removes this hive's component of the given name, with its commands and its object. A parent's component of
    /// the same name is untouched, and becomes visible through this hive again.
    ///
    /// - Parameter name: The component's name.
    /// - Returns: Whether this hive had the component.
    @discardableResult
    public func unregisterComponent(_ name: String) -> Bool {
        guard let component = ownInstance(of: Component.self, name: name) else { return false }
        for declared in component.commands.values { unregister(ComponentCommand.self, name: declared.key) }
        _ = component.unregisterObject?(self)
        return unregister(Component.self, name: name)
    }
}
