import ServiceHive

extension ServiceHive {
    // MARK: - Routing

    /// What answers a call: a command of a component, or the fallback.
    enum Route {
        case command(Component, ComponentCommand)
        case fallback(ComponentFallback, ComponentError)
    }

    /// Finds what answers `call`: the component's registration, then the command's, each as this hive sees it;
    /// else the fallback, with the error the call would throw without one. A call from a URL finds only a command
    /// reachable by URL.
    ///
    /// Throws a ``ComponentError`` when nothing answers, or when a URL names a command not reachable by URL; a
    /// `ServiceHiveError` when the hive refuses a lookup, as inside a strict `withOverrides` that does not override
    /// the component.
    func route(_ call: ComponentCall) throws -> Route {
        let component: Component
        do {
            component = try resolve(Component.self, name: call.component)
        } catch ServiceHiveError.notRegistered(let key, _)
            where key.name == call.component && key.service == Self.componentTypeName
        {
            return try fallback(or: .componentNotFound(call.component, available: componentNames))
        }
        var miss: ComponentError {
            .commandNotFound(component: call.component, command: call.command, available: component.commandNames)
        }
        guard let declared = component.commands[call.command] else { return try fallback(or: miss) }
        let command: ComponentCommand
        do {
            command = try resolve(ComponentCommand.self, name: declared.key)
        } catch ServiceHiveError.notRegistered(let key, _) where key.name == declared.key {
            return try fallback(or: miss)  // Declared by a registration whose command is gone: removeAll in a module.
        }
        guard call.url == nil || component.isReachableByURL(command) else { throw unreachable(component, command) }
        return .command(component, command)
    }

    /// The fallback with `miss`, or `miss` thrown when there is none.
    private func fallback(or miss: ComponentError) throws -> Route {
        guard let fallback = try? resolve(ComponentFallback.self) else { throw miss }
        return .fallback(fallback, miss)
    }

    /// The names of the components this hive can call, sorted, for errors.
    var componentNames: [String] {
        Set(visibleInstances(of: Component.self).compactMap(\.name)).sorted()
    }

    static let componentTypeName = ServiceKey(Component.self).service

    // MARK: - Running

    /// Runs `call`, synchronous or `async`, to its reply: the `async` forms of `call` and `open`.
    nonisolated(nonsending) func perform(_ call: ComponentCall) async throws -> ComponentReply {
        switch try route(call) {
        case .command(_, let command):
            return try await Self.run(command, call)
        case .fallback(let fallback, let miss):
            return try Self.answer(call, with: fallback, for: miss)
        }
    }

    /// Runs `call` and hands the outcome to `completion`: the completion-handler forms of `call` and `open`. A
    /// synchronous command, and a call that fails before any command runs, complete before this returns; an `async`
    /// command runs in a new `Task`, which inherits the calling task's overrides, and completes on it.
    func perform(
        _ call: ComponentCall,
        completion: @escaping @Sendable (Result<ComponentReply, any Error>) -> Void
    ) {
        do {
            switch try route(call) {
            case .command(_, let command):
                guard case .sync(let body) = command.body else {
                    Task {
                        do throws(ComponentError) {
                            completion(.success(try await Self.run(command, call)))
                        } catch {
                            completion(.failure(error))
                        }
                    }
                    return
                }
                completion(.success(try Self.run(body, call)))
            case .fallback(let fallback, let miss):
                completion(.success(try Self.answer(call, with: fallback, for: miss)))
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// Runs a synchronous command.
    static func run(
        _ body: @Sendable (ComponentCall) throws -> ComponentReply,
        _ call: ComponentCall
    ) throws(ComponentError) -> ComponentReply {
        do {
            return try body(call).stamped(call.component, call.command)
        } catch {
            throw failure(error, of: call)
        }
    }

    /// Runs a command, synchronous or `async`. On the caller's executor, so that a synchronous command answers an
    /// `async` caller without a hop to another thread and back, which measured 10 µs a call from the main actor.
    nonisolated(nonsending) static func run(
        _ command: ComponentCommand,
        _ call: ComponentCall
    ) async throws(ComponentError) -> ComponentReply {
        switch command.body {
        case .sync(let body):
            return try run(body, call)
        case .async(let body):
            do {
                return try await body(call).stamped(call.component, call.command)
            } catch {
                throw failure(error, of: call)
            }
        }
    }

    /// Lets the fallback answer a call that nothing else answers. What it throws reaches the caller as it is when it
    /// is a ``ComponentError``, such as the `miss` it was given, or a ``ServiceHiveError``; anything else as
    /// `commandFailed`.
    static func answer(
        _ call: ComponentCall,
        with fallback: ComponentFallback,
        for miss: ComponentError
    ) throws -> ComponentReply {
        do {
            return try fallback.handler(call, miss).stamped(call.component, call.command)
        } catch let error as ComponentError {
            throw error
        } catch let error as ServiceHiveError {
            throw error
        } catch {
            throw ComponentError.commandFailed(component: call.component, command: call.command, underlying: error)
        }
    }

    /// What a call throws for what its command threw: an error about this call's own arguments or conversions as
    /// it is, anything else as the command's failure. An error of a call that the command made itself, such as
    /// `componentNotFound`, is the command's failure too.
    static func failure(_ error: any Error, of call: ComponentCall) -> ComponentError {
        switch error as? ComponentError {
        case let error? where error.isAboutArguments(of: call):
            return error
        default:
            return .commandFailed(component: call.component, command: call.command, underlying: error)
        }
    }
}

extension ComponentError {
    /// Whether this is an error of reading or converting the arguments or the reply of `call` itself.
    func isAboutArguments(of call: ServiceHive.ComponentCall) -> Bool {
        switch self {
        case .missingArgument(call.component, call.command, _, _),
            .argumentTypeMismatch(call.component, call.command, _, _, _),
            .conversionFailed(call.component, call.command, _, _):
            return true
        default:
            return false
        }
    }
}
