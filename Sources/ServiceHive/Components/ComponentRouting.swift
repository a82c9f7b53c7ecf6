extension ServiceHive {
    // MARK: - Routing

    /// What answers a call: a command of a component, or the fallback.
    enum Route {
        case command(Component, ComponentCommand)
        case fallback(ComponentFallback, ServiceHiveError)
    }

    /// Finds what answers `call`: the component's registration, then the command's, each as this hive sees it;
    /// else the fallback, with the error the call would throw without one.
    func route(_ call: ComponentCall) throws -> Route {
        let component: Component
        do {
            component = try resolve(Component.self, name: call.component)
        } catch ServiceHiveError.notRegistered(let key, _)
            where key.name == call.component && key.service == Self.componentTypeName
        {
            return try fallback(or: .componentNotFound(call.component, available: componentNames))
        }
        var miss: ServiceHiveError {
            .commandNotFound(component: call.component, command: call.command, available: component.commandNames)
        }
        guard let declared = component.commands[call.command] else { return try fallback(or: miss) }
        do {
            return .command(component, try resolve(ComponentCommand.self, name: declared.key))
        } catch ServiceHiveError.notRegistered(let key, _) where key.name == declared.key {
            return try fallback(or: miss)  // Declared by a registration whose command is gone: removeAll in a module.
        }
    }

    /// The fallback with `miss`, or `miss` thrown when there is none.
    private func fallback(or miss: ServiceHiveError) throws -> Route {
        guard let fallback = try? resolve(ComponentFallback.self) else { throw miss }
        return .fallback(fallback, miss)
    }

    /// The names of the components this hive can call, sorted, for errors.
    var componentNames: [String] {
        Set(visibleInstances(of: Component.self).compactMap(\.name)).sorted()
    }

    static let componentTypeName = ServiceKey(Component.self).service

    // MARK: - Running

    /// Runs a synchronous command.
    static func run(
        _ body: @Sendable (ComponentCall) throws -> ComponentReply,
        _ call: ComponentCall
    ) throws(ServiceHiveError) -> ComponentReply {
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
    ) async throws(ServiceHiveError) -> ComponentReply {
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

    /// Lets the fallback answer a call that nothing else answers.
    static func answer(
        _ call: ComponentCall,
        with fallback: ComponentFallback,
        for miss: ServiceHiveError
    ) throws(ServiceHiveError) -> ComponentReply {
        do {
            return try fallback.handler(call, miss).stamped(call.component, call.command)
        } catch let error as ServiceHiveError {
            throw error
        } catch {
            throw .commandFailed(component: call.component, command: call.command, underlying: error)
        }
    }

    /// What a call throws for what its command threw: an error about this call's own arguments or conversions as
    /// it is, anything else as the command's failure. An error of a call that the command made itself, such as
    /// `componentNotFound`, is the command's failure too.
    static func failure(_ error: any Error, of call: ComponentCall) -> ServiceHiveError {
        switch error as? ServiceHiveError {
        case let error? where error.isAboutArguments(of: call):
            return error
        default:
            return .commandFailed(component: call.component, command: call.command, underlying: error)
        }
    }
}

extension ServiceHiveError {
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
