extension ServiceHive {
    // MARK: - Registering components

    /// Registers a component: a name, and commands that callers run by name, with named arguments.
    ///
    /// ```swift
    /// try hive.registerComponent("trade") { component in
    ///     component.command("quote") { call in
    ///         let item: String = try call.argument("item")
    ///         let quantity = try call.argument("quantity", as: Int.self)
    ///         let trade = try call.resolver.resolve(TradeService.self)
    ///         return ["total": try trade.quote(itemId: item, quantity: quantity).total.cents]
    ///     }
    ///     component.command("order", reachableByURL: true) { call in … }
    /// }
    ///
    /// let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
    /// ```
    ///
    /// A component and each of its commands are registrations of the hive, so everything the hive does for services
    /// it does for them: a module's component is attributed to the module and rolled back with its install; a
    /// second component of the same name, or two commands of the same name, throw
    /// ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` with both source locations;
    /// ``registrations`` and `print(hive)` list them; a child hive sees its parent's components and may register
    /// its own; and ``withOverrides(strict:_:operation:)`` replaces a whole component this way, or one command with
    /// ``registerCommand(_:of:reachableByURL:file:line:_:)-64kai``.
    ///
    /// Registering is all or nothing: when any registration of the component is refused, none is made.
    ///
    /// - Parameters:
    ///   - name: The component's name: 1 to 64 letters, digits, `-`, `_` or `.`, other than `.` and `..`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - commands: Declares the component's commands.
    /// - Throws: ``ServiceHiveError/invalidComponentName(_:)`` for a name that is not valid;
    ///   ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a component of
    ///   the name, or the closure declares a command twice.
    public func registerComponent(
        _ name: String,
        file: String = #fileID,
        line: UInt = #line,
        commands: (inout ComponentBuilder<Void>) -> Void
    ) throws {
        var builder = ComponentBuilder<Void>(name: name, object: { _ in () })
        commands(&builder)
        try addComponent(builder, object: nil, site: RegistrationSite(fileID: file, line: line))
    }

    /// Registers a component whose commands work on an object that the hive builds, as AppTemplateLib's
    /// ATComponentService registers a component class.
    ///
    /// ```swift
    /// try hive.registerComponent("main", scope: .singleton) { r in
    ///     MainComponent(settings: try r.resolve())
    /// } commands: { component in
    ///     component.command("appName") { main, call in ["name": main.appName(prefix: try call.argument("prefix"))] }
    /// }
    /// ```
    ///
    /// The object is a registration of `Object` named after the component, with the scope given: `.singleton`, the
    /// default, builds it on the first call and keeps it, as ATComponentService does a class; `.transient` builds
    /// one per call, as CTMediator does a target it does not cache. A test can override the object as it overrides
    /// any service.
    ///
    /// - Parameters:
    ///   - name: The component's name.
    ///   - scope: How long the hive keeps the object.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - object: Builds the object from its dependencies.
    ///   - commands: Declares the component's commands.
    /// - Throws: The errors of ``registerComponent(_:file:line:commands:)``, and
    ///   ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when `Object` is already registered under the
    ///   component's name.
    public func registerComponent<Object: Sendable>(
        _ name: String,
        scope: Scope = .singleton,
        file: String = #fileID,
        line: UInt = #line,
        object: @escaping @Sendable (Resolver) throws -> Object,
        commands: (inout ComponentBuilder<Object>) -> Void
    ) throws {
        let site = RegistrationSite(fileID: file, line: line)
        var builder = ComponentBuilder<Object>(name: name) { call in try call.resolver.resolve(Object.self, name: name)
        }
        commands(&builder)
        let registration = PendingEntry.factory(Object.self, name: name, scope: scope, site: site, make: object)
        try addComponent(builder, object: (registration, { $0.unregister(Object.self, name: name) }), site: site)
    }

    /// Registers a component whose commands work on an object that exists already, as AppTemplateLib's
    /// ATComponentService registers a component object.
    ///
    /// ```swift
    /// try hive.registerComponent("main", instance: MainComponent()) { component in
    ///     component.command("appName") { main, call in ["name": main.appName(prefix: "")] }
    /// }
    /// ```
    ///
    /// The object is an instance registration of `Object` named after the component: every call gets this object.
    ///
    /// - Parameters:
    ///   - name: The component's name.
    ///   - instance: The object, evaluated once, when you register.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - commands: Declares the component's commands.
    /// - Throws: The errors of ``registerComponent(_:scope:file:line:object:commands:)``.
    public func registerComponent<Object: Sendable>(
        _ name: String,
        instance: @autoclosure () -> Object,
        file: String = #fileID,
        line: UInt = #line,
        commands: (inout ComponentBuilder<Object>) -> Void
    ) throws {
        let site = RegistrationSite(fileID: file, line: line)
        var builder = ComponentBuilder<Object>(name: name) { call in try call.resolver.resolve(Object.self, name: name)
        }
        commands(&builder)
        let registration = PendingEntry.instance(instance(), as: Object.self, name: name, site: site)
        try addComponent(builder, object: (registration, { $0.unregister(Object.self, name: name) }), site: site)
    }

    // MARK: - Registering one command

    /// Registers the implementation of one command of a component, in place of the one the component declared: the
    /// way to replace a single command in a test.
    ///
    /// ```swift
    /// try hive.withOverrides {
    ///     try $0.registerCommand("quote", of: "trade") { call in ["total": 0] }
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
    ///   - reachableByURL: Whether ``open(_:)`` may run this implementation.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: ``ServiceHiveError/invalidComponentName(_:)`` for a name that is not valid;
    ///   ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has an implementation
    ///   of the command.
    public func registerCommand(
        _ name: String,
        of component: String,
        reachableByURL: Bool = false,
        file: String = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall) throws -> ComponentReply
    ) throws {
        try addCommand(component, name, reachableByURL, file, line, .sync(handler))
    }

    /// Registers an `async` implementation of one command of a component, in place of the one it declared.
    ///
    /// - Parameters:
    ///   - name: The command's name.
    ///   - component: The name of the component that declares it.
    ///   - reachableByURL: Whether ``open(_:)`` may run this implementation.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the synchronous form.
    public func registerCommand(
        _ name: String,
        of component: String,
        reachableByURL: Bool = false,
        file: String = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall) async throws -> ComponentReply
    ) throws {
        try addCommand(component, name, reachableByURL, file, line, .async(handler))
    }

    /// Registers a typed implementation of one command, in place of the one its component declared.
    ///
    /// ```swift
    /// try $0.registerCommand(.tradeQuote) { request, call in QuoteReply(total: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``open(_:)`` may run this implementation.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the weak-typed form.
    public func registerCommand<Input, Output>(
        _ command: Command<Input, Output>,
        reachableByURL: Bool = false,
        file: String = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (Input, ComponentCall) throws -> Output
    ) throws {
        try addCommand(command.component, command.name, reachableByURL, file, line, .sync(Command.body(handler)))
    }

    /// Registers a typed `async` implementation of one command, in place of the one its component declared.
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - reachableByURL: Whether ``open(_:)`` may run this implementation.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Runs the command.
    /// - Throws: The errors of the weak-typed form.
    public func registerCommand<Input, Output>(
        _ command: Command<Input, Output>,
        reachableByURL: Bool = false,
        file: String = #fileID,
        line: UInt = #line,
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
    /// ``ServiceHiveError/componentNotFound(_:available:)`` or
    /// ``ServiceHiveError/commandNotFound(component:command:available:)``. Its reply is the call's reply. It is not
    /// asked for a command that exists but is not reachable by URL.
    ///
    /// A hive has one fallback; a child hive inherits its parent's, and may register its own.
    ///
    /// - Parameters:
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - handler: Answers the call, or throws; an error that is not a ``ServiceHiveError`` reaches the caller as
    ///     ``ServiceHiveError/commandFailed(component:command:underlying:)``.
    /// - Throws: ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` when this hive already has a
    ///   fallback.
    public func registerComponentFallback(
        file: String = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (ComponentCall, ServiceHiveError) throws -> ComponentReply
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

    // MARK: - Internals

    /// Registers the component of `builder`, each of its commands, and its object, all or nothing.
    private func addComponent<Object>(
        _ builder: ComponentBuilder<Object>,
        object: (registration: PendingEntry, unregister: @Sendable (ServiceHive) -> Bool)?,
        site: RegistrationSite
    ) throws(ServiceHiveError) {
        guard ComponentNames.isValid(builder.name) else { throw .invalidComponentName(builder.name) }
        for command in builder.commands where !ComponentNames.isValid(command.name) {
            throw .invalidComponentName(command.name)
        }
        let component = Component(name: builder.name, commands: builder.commands, unregisterObject: object?.unregister)
        var pending = [PendingEntry.instance(component, as: Component.self, name: builder.name, site: site)]
        for command in builder.commands {
            pending.append(.instance(command, as: ComponentCommand.self, name: command.key, site: command.site))
        }
        if let object { pending.append(object.registration) }
        try addAll(pending)
    }

    /// Registers one command's implementation.
    private func addCommand(
        _ component: String,
        _ name: String,
        _ reachableByURL: Bool,
        _ file: String,
        _ line: UInt,
        _ body: ComponentCommand.Body
    ) throws(ServiceHiveError) {
        for name in [component, name] where !ComponentNames.isValid(name) { throw .invalidComponentName(name) }
        let site = RegistrationSite(fileID: file, line: line)
        let command = ComponentCommand(
            component: component, name: name, isReachableByURL: reachableByURL, body: body, site: site)
        try addAll([.instance(command, as: ComponentCommand.self, name: command.key, site: site)])
    }
}
