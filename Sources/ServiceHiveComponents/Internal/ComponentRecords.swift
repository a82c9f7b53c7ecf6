import ServiceHive

/// What `registerComponent` registers under the component's name: the component's name and the commands it
/// declares.
///
/// A call looks it up first, so a component that an override or a child hive registers again replaces the whole
/// component: only the commands it declares can be called. Each command's implementation is a registration of its
/// own, a `ComponentCommand`, which a call then looks up.
final class Component: Sendable {
    let name: String
    /// The declared commands, by name.
    let commands: [String: DeclaredCommand]
    /// Unregisters the component's object, of a type only the registration knew, if it has one.
    let unregisterObject: (@Sendable (ServiceHive) -> Bool)?

    init(name: String, commands: [ComponentCommand], unregisterObject: (@Sendable (ServiceHive) -> Bool)?) {
        self.name = name
        self.commands = Dictionary(
            commands.map { ($0.name, DeclaredCommand(key: $0.key, isReachableByURL: $0.isReachableByURL ?? false)) },
            uniquingKeysWith: { first, _ in first })
        self.unregisterObject = unregisterObject
    }

    /// The declared commands' names, sorted.
    var commandNames: [String] { commands.keys.sorted() }

    /// Whether `command`, an implementation of one of this component's commands, may run for a URL: as it says, or,
    /// when it does not say, as the command this component declares.
    func isReachableByURL(_ command: ComponentCommand) -> Bool {
        command.isReachableByURL ?? commands[command.name]?.isReachableByURL ?? false
    }
}

/// A command that a component declares.
struct DeclaredCommand: Sendable {
    /// The name of the command's registration, `component/command`, computed once.
    let key: String
    let isReachableByURL: Bool
}

/// One command's implementation, registered as an instance named `component/command`.
final class ComponentCommand: Sendable {
    enum Body: Sendable {
        case sync(@Sendable (ServiceHive.ComponentCall) throws -> ServiceHive.ComponentReply)
        case async(@Sendable (ServiceHive.ComponentCall) async throws -> ServiceHive.ComponentReply)
    }

    let component: String
    let name: String
    /// `nil` for an implementation registered in place of a declared command that keeps its reachability; see
    /// ``Component/isReachableByURL(_:)``.
    let isReachableByURL: Bool?
    let body: Body
    /// Where the command was declared.
    let site: ServiceHive.RegistrationSite

    init(component: String, name: String, isReachableByURL: Bool?, body: Body, site: ServiceHive.RegistrationSite) {
        self.component = component
        self.name = name
        self.isReachableByURL = isReachableByURL
        self.body = body
        self.site = site
    }

    /// The name of the command's registration: `trade/quote`.
    var key: String { ComponentNames.key(component, name) }

    var isAsync: Bool {
        if case .async = body { return true }
        return false
    }
}

/// The handler of calls that nothing answers, registered as an instance without a name.
final class ComponentFallback: Sendable {
    let handler: @Sendable (ServiceHive.ComponentCall, ComponentError) throws -> ServiceHive.ComponentReply

    init(
        _ handler:
            @escaping @Sendable (ServiceHive.ComponentCall, ComponentError) throws -> ServiceHive.ComponentReply
    ) {
        self.handler = handler
    }
}

/// The URL schemes a hive accepts, registered as an instance without a name.
final class AcceptedURLSchemes: Sendable {
    /// Lowercased: schemes are case-insensitive.
    let schemes: Set<String>
    /// As given, for messages.
    let listed: [String]

    init(_ schemes: [String]) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        listed = schemes
    }
}
