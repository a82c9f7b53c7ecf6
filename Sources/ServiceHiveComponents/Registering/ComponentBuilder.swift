import ServiceHive

extension ServiceHive {
    /// Declares the commands of a component, in the closure of
    /// ``ServiceHive/registerComponent(_:file:line:commands:)``.
    ///
    /// ```swift
    /// try hive.registerComponent("trade") { component in
    ///     component.command("quote") { call in ["total": 2_500] }
    ///     component.command("order", reachableByURL: true) { call in ["number": 1] }
    ///     component.command("track") { call in
    ///         try await Task.sleep(for: .milliseconds(10))
    ///         return ["status": "delivered"]
    ///     }
    /// }
    /// ```
    ///
    /// A handler is synchronous or `async`, as its closure is. A synchronous caller can run a synchronous command
    /// without a `Task`. A component registered with an object passes the object to the handlers that take one.
    ///
    /// Every command records the line that declares it, for errors and for ``ServiceHive/components``. Only commands
    /// declared `reachableByURL: true` answer ``ServiceHive/open(_:callback:)``.
    public struct ComponentBuilder<Object: Sendable> {
        /// The name of the component whose commands this declares.
        public let name: String
        /// The commands declared so far, in order.
        var commands: [ComponentCommand] = []
        /// The resolver of the component's object, for the handlers that take it.
        let object: @Sendable (ComponentCall) throws -> Object

        init(name: String, object: @escaping @Sendable (ComponentCall) throws -> Object) {
            self.name = name
            self.object = object
        }

        // MARK: - Weak-typed commands

        /// Declares a synchronous command.
        ///
        /// ```swift
        /// component.command("quote") { call in
        ///     let quantity = try call.argument("quantity", as: Int.self)
        ///     return ["total": 1_250 * quantity]
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - name: The command's name: 1 to 64 letters, digits, `-`, `_` or `.`.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command. A URL is input from
        ///     outside the app, so the default is `false`.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command. What it throws, other than the errors of reading its arguments, reaches
        ///     the caller as ``ComponentError/commandFailed(component:command:underlying:)``.
        public mutating func command(
            _ name: String, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (ComponentCall) throws -> ComponentReply
        ) {
            add(name, reachableByURL, file, line, .sync(handler))
        }

        /// Declares an `async` command. Callers run it with `try await`, or with the form that takes a completion
        /// handler; a synchronous call fails with ``ComponentError/commandIsAsync(component:command:)``.
        ///
        /// ```swift
        /// component.command("track") { call in
        ///     call.callback(["progress": 50])
        ///     try await Task.sleep(for: .milliseconds(10))
        ///     return ["status": "delivered"]
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - name: The command's name: 1 to 64 letters, digits, `-`, `_` or `.`.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command.
        public mutating func command(
            _ name: String, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (ComponentCall) async throws -> ComponentReply
        ) {
            add(name, reachableByURL, file, line, .async(handler))
        }

        /// Declares a synchronous command that works on the component's object.
        ///
        /// ```swift
        /// try hive.registerComponent("main", scope: .singleton) { _ in MainComponent() } commands: { component in
        ///     component.command("appName") { main, call in ["name": main.appName(prefix: try call.argument("prefix"))] }
        /// }
        /// ```
        ///
        /// Each call resolves the object from the hive that was called, as the component's registration scope says.
        ///
        /// - Parameters:
        ///   - name: The command's name: 1 to 64 letters, digits, `-`, `_` or `.`.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command on the object.
        public mutating func command(
            _ name: String, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (Object, ComponentCall) throws -> ComponentReply
        ) {
            let object = object
            add(name, reachableByURL, file, line, .sync { call in try handler(object(call), call) })
        }

        /// Declares an `async` command that works on the component's object.
        ///
        /// - Parameters:
        ///   - name: The command's name: 1 to 64 letters, digits, `-`, `_` or `.`.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command on the object.
        public mutating func command(
            _ name: String, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (Object, ComponentCall) async throws -> ComponentReply
        ) {
            let object = object
            add(name, reachableByURL, file, line, .async { call in try await handler(object(call), call) })
        }

        // MARK: - Typed commands

        /// Declares a synchronous command from its typed descriptor: the handler takes the decoded input and returns
        /// the output, which becomes the reply's values.
        ///
        /// ```swift
        /// component.command(.tradeQuote) { request, call in
        ///     QuoteReply(total: 1_250 * request.quantity)
        /// }
        /// ```
        ///
        /// Weak-typed callers see the same arguments and reply: the input's properties are the arguments, the
        /// output's are the reply's values.
        ///
        /// - Precondition: `command.component` is this component's ``name``. Declare the command with its name,
        ///   with ``command(_:reachableByURL:file:line:_:)-2kpm9``, to use any descriptor's name.
        ///
        /// - Parameters:
        ///   - command: The command's descriptor.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command. A missing or mismatched argument fails the call before it runs, with an
        ///     error that names the argument.
        public mutating func command<Input, Output>(
            _ command: Command<Input, Output>, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (Input, ComponentCall) throws -> Output
        ) {
            precondition(
                command.component == self.name,
                "\(command) is declared in the component \(self.name); declare it in \(command.component)")
            add(command.name, reachableByURL, file, line, .sync(Command<Input, Output>.body(handler)))
        }

        /// Declares an `async` command from its typed descriptor.
        ///
        /// - Precondition: `command.component` is this component's ``name``.
        ///
        /// - Parameters:
        ///   - command: The command's descriptor.
        ///   - reachableByURL: Whether ``ServiceHive/open(_:callback:)`` may run the command.
        ///   - file: The file of the declaration, recorded for errors and introspection.
        ///   - line: The line of the declaration.
        ///   - handler: Runs the command.
        public mutating func command<Input, Output>(
            _ command: Command<Input, Output>, reachableByURL: Bool = false, file: String = #fileID, line: UInt = #line,
            _ handler: @escaping @Sendable (Input, ComponentCall) async throws -> Output
        ) {
            precondition(
                command.component == self.name,
                "\(command) is declared in the component \(self.name); declare it in \(command.component)")
            add(command.name, reachableByURL, file, line, .async(Command<Input, Output>.body(handler)))
        }

        private mutating func add(
            _ command: String, _ reachableByURL: Bool, _ file: String, _ line: UInt, _ body: ComponentCommand.Body
        ) {
            commands.append(
                ComponentCommand(
                    component: name, name: command, isReachableByURL: reachableByURL, body: body,
                    site: RegistrationSite(fileID: file, line: line)))
        }
    }
}
