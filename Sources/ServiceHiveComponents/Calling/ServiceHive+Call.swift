import ServiceHive

extension ServiceHive {
    // MARK: - Calling a command by name

    /// Calls a synchronous command by its component's name and its own, with named arguments, and returns its reply.
    ///
    /// ```swift
    /// let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
    /// let total: Int = try reply.value("total")
    /// ```
    ///
    /// The caller needs no type of the component: that is the point of a call by name. The command runs on the
    /// calling thread, without a `Task`, so this is the form for synchronous code that needs an answer now. In
    /// `async` code, Swift picks the `async` form, which runs `async` commands too.
    ///
    /// The hive finds the component in its registrations, its ancestors' and the overrides of the calling task, as
    /// it finds a service. When nothing answers and a fallback is registered with
    /// ``registerComponentFallback(file:line:_:)``, the fallback answers.
    ///
    /// - Parameters:
    ///   - component: The component's name, such as `trade`.
    ///   - command: The command's name, such as `quote`.
    ///   - arguments: The arguments, by name.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    /// - Returns: The command's reply.
    /// - Throws: A ``ComponentError``: ``ComponentError/componentNotFound(_:available:)`` or
    ///   ``ComponentError/commandNotFound(component:command:available:)``, each listing what is there, when
    ///   nothing answers; ``ComponentError/commandIsAsync(component:command:)`` for an `async` command;
    ///   ``ComponentError/missingArgument(component:command:argument:passed:)`` or
    ///   ``ComponentError/argumentTypeMismatch(component:command:argument:expected:found:)`` for a bad argument;
    ///   ``ComponentError/commandFailed(component:command:underlying:)`` with what the command threw, whatever its
    ///   type. A `ServiceHiveError` when the hive refuses to look the component up, such as `notOverridden` inside a
    ///   strict `withOverrides` that does not override it. What the fallback throws, when it answers: a
    ///   ``ComponentError`` or a `ServiceHiveError` as it is, any other error as `commandFailed`.
    public func call(
        _ component: String,
        _ command: String,
        arguments: [String: any Sendable] = [:],
        callback: (@Sendable (ComponentReply) -> Void)? = nil
    ) throws -> ComponentReply {
        let call = ComponentCall(
            component: component, command: command, arguments: arguments, resolver: resolver, url: nil,
            callback: callback)
        switch try route(call) {
        case .command(_, let found):
            guard case .sync(let body) = found.body else {
                throw ComponentError.commandIsAsync(component: component, command: command)
            }
            return try Self.run(body, call)
        case .fallback(let fallback, let miss):
            return try Self.answer(call, with: fallback, for: miss)
        }
    }

    /// Calls a command, synchronous or `async`, by its component's name and its own, and returns its reply.
    ///
    /// ```swift
    /// let reply = try await hive.call("trade", "track", arguments: ["order": 1]) { update in
    ///     print(update)  // [progress: 50]
    /// }
    /// ```
    ///
    /// A synchronous command runs on the calling task without suspending it. The rules and errors are those of the
    /// synchronous ``call(_:_:arguments:callback:)-41g2l``, without
    /// ``ComponentError/commandIsAsync(component:command:)``.
    ///
    /// - Parameters:
    ///   - component: The component's name.
    ///   - command: The command's name.
    ///   - arguments: The arguments, by name.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    /// - Returns: The command's reply.
    /// - Throws: What the synchronous form throws, other than `commandIsAsync`: a ``ComponentError``, or a
    ///   `ServiceHiveError` when the hive refuses the lookup.
    nonisolated(nonsending) public func call(
        _ component: String,
        _ command: String,
        arguments: [String: any Sendable] = [:],
        callback: (@Sendable (ComponentReply) -> Void)? = nil
    ) async throws -> ComponentReply {
        try await perform(
            ComponentCall(
                component: component, command: command, arguments: arguments, resolver: resolver, url: nil,
                callback: callback))
    }

    /// Calls a command by name and hands the outcome to a completion handler: the form for code that is neither
    /// `async` nor able to wait.
    ///
    /// ```swift
    /// hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2]) { result in
    ///     if case .success(let reply) = result { print(reply) }
    /// }
    /// ```
    ///
    /// A synchronous command runs at once, and `completion` runs before this returns. An `async` command runs in a
    /// new `Task`, which inherits the overrides of the calling task, and `completion` runs on that task when it
    /// ends.
    ///
    /// - Parameters:
    ///   - component: The component's name.
    ///   - command: The command's name.
    ///   - arguments: The arguments, by name.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    ///   - completion: Receives the reply, or the error the `async` form would throw: a ``ComponentError``, or a
    ///     `ServiceHiveError` when the hive refuses the lookup.
    public func call(
        _ component: String,
        _ command: String,
        arguments: [String: any Sendable] = [:],
        callback: (@Sendable (ComponentReply) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ComponentReply, any Error>) -> Void
    ) {
        perform(
            ComponentCall(
                component: component, command: command, arguments: arguments, resolver: resolver, url: nil,
                callback: callback),
            completion: completion)
    }

    // MARK: - Calling a typed command

    /// Calls a command through its typed descriptor: the input becomes the arguments, and the reply becomes the
    /// output.
    ///
    /// ```swift
    /// extension ServiceHive.Command where Input == QuoteRequest, Output == QuoteReply {
    ///     static var tradeQuote: Self { .init(component: "trade", name: "quote") }
    /// }
    ///
    /// let quote = try hive.call(.tradeQuote, QuoteRequest(item: "hive-42", quantity: 2))
    /// ```
    ///
    /// The input's properties are the arguments, by their coding keys, with their own types; a weak-typed caller
    /// that passes the same values makes the same call. Nested values become nested dictionaries and arrays.
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - input: The input, whose properties are the arguments.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    /// - Returns: The reply, decoded as the output.
    /// - Throws: The errors of ``call(_:_:arguments:callback:)-41g2l``; and the ``ComponentError``s
    ///   ``ComponentError/missingReplyValue(component:command:value:present:)`` or
    ///   ``ComponentError/replyValueTypeMismatch(component:command:value:expected:found:)`` when the reply does
    ///   not decode as the output, naming the value, or ``ComponentError/conversionFailed(component:command:type:underlying:)``
    ///   when the input does not convert to arguments.
    public func call<Input, Output>(
        _ command: Command<Input, Output>,
        _ input: Input,
        callback: (@Sendable (ComponentReply) -> Void)? = nil
    ) throws -> Output {
        let arguments = try command.arguments(from: input)
        let reply = try call(command.component, command.name, arguments: arguments, callback: callback)
        return try command.output(from: reply)
    }

    /// Calls a command, synchronous or `async`, through its typed descriptor.
    ///
    /// ```swift
    /// let quote = try await hive.call(.tradeQuote, QuoteRequest(item: "hive-42", quantity: 2))
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command's descriptor.
    ///   - input: The input, whose properties are the arguments.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    /// - Returns: The reply, decoded as the output.
    /// - Throws: What the synchronous form throws, other than `commandIsAsync`: a ``ComponentError``, or a
    ///   `ServiceHiveError` when the hive refuses the lookup.
    nonisolated(nonsending) public func call<Input, Output>(
        _ command: Command<Input, Output>,
        _ input: Input,
        callback: (@Sendable (ComponentReply) -> Void)? = nil
    ) async throws -> Output {
        let arguments = try command.arguments(from: input)
        let reply = try await call(command.component, command.name, arguments: arguments, callback: callback)
        return try command.output(from: reply)
    }
}
