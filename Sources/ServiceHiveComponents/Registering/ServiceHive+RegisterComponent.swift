import ServiceHive

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
    /// the hive's `ServiceHiveError.alreadyRegistered` with both source locations; `registrations` and `print(hive)`
    /// list them, and `validate()` builds each component's object; a child hive sees its parent's components and may
    /// register its own; and `withOverrides` replaces a whole component this way, or one command with
    /// ``registerCommand(_:of:reachableByURL:file:line:_:)-63lim``.
    ///
    /// Registering is all or nothing: when any registration of the component is refused, none is made.
    ///
    /// - Parameters:
    ///   - name: The component's name: 1 to 64 letters, digits, `-`, `_` or `.`, other than `.` and `..`.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    ///   - commands: Declares the component's commands.
    /// - Throws: ``ComponentError/invalidComponentName(_:)`` for a name that is not valid; the hive's
    ///   `ServiceHiveError.alreadyRegistered` when this hive already has a component of the name, or the closure
    ///   declares a command twice.
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
    /// - Throws: The errors of ``registerComponent(_:file:line:commands:)``, and the hive's
    ///   `ServiceHiveError.alreadyRegistered` when `Object` is already registered under the component's name.
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
        let registration = PendingRegistration.factory(Object.self, name: name, scope: scope, site: site, make: object)
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
        let registration = PendingRegistration.instance(instance(), as: Object.self, name: name, site: site)
        try addComponent(builder, object: (registration, { $0.unregister(Object.self, name: name) }), site: site)
    }

    // MARK: - Internals

    /// Registers the component of `builder`, each of its commands, and its object, all or nothing.
    ///
    /// Throws ``ComponentError/invalidComponentName(_:)`` for a name that is not valid, before registering anything;
    /// `ServiceHiveError.alreadyRegistered` for a registration whose key is taken.
    func addComponent<Object>(
        _ builder: ComponentBuilder<Object>,
        object: (registration: PendingRegistration, unregister: @Sendable (ServiceHive) -> Bool)?,
        site: RegistrationSite
    ) throws {
        guard ComponentNames.isValid(builder.name) else { throw ComponentError.invalidComponentName(builder.name) }
        for command in builder.commands where !ComponentNames.isValid(command.name) {
            throw ComponentError.invalidComponentName(command.name)
        }
        let component = Component(name: builder.name, commands: builder.commands, unregisterObject: object?.unregister)
        var pending = [PendingRegistration.instance(component, as: Component.self, name: builder.name, site: site)]
        for command in builder.commands {
            pending.append(.instance(command, as: ComponentCommand.self, name: command.key, site: command.site))
        }
        if let object { pending.append(object.registration) }
        try registerAll(pending)
    }

    /// Registers one command's implementation; throws as ``addComponent(_:object:site:)`` does.
    func addCommand(
        _ component: String,
        _ name: String,
        _ reachableByURL: Bool?,
        _ file: String,
        _ line: UInt,
        _ body: ComponentCommand.Body
    ) throws {
        for name in [component, name] where !ComponentNames.isValid(name) {
            throw ComponentError.invalidComponentName(name)
        }
        let site = RegistrationSite(fileID: file, line: line)
        let command = ComponentCommand(
            component: component, name: name, isReachableByURL: reachableByURL, body: body, site: site)
        try registerAll([.instance(command, as: ComponentCommand.self, name: command.key, site: site)])
    }
}
