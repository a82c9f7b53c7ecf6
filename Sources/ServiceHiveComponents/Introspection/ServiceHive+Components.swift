import ServiceHive

extension ServiceHive {
    // MARK: - Introspection

    /// Every component this hive can call, sorted by name: its own, and its ancestors' that it does not shadow, each
    /// with its commands as this hive would run them.
    ///
    /// ```swift
    /// for component in hive.components {
    ///     print(component)  // trade: order (URL), quote, track (async); module Trade, at Trade/TradeComponent.swift:20
    ///     for command in component.commands {
    ///         print(command.name, command.isReachableByURL, command.site)
    ///     }
    /// }
    /// ```
    ///
    /// Overrides are not listed: this is the composition root as registered.
    public var components: [ComponentRegistration] {
        let commands = Dictionary(
            visibleInstances(of: ComponentCommand.self).map { ($0.name ?? "", ($0.value, $0.site)) },
            uniquingKeysWith: { nearest, _ in nearest })
        return visibleInstances(of: Component.self).map { component in
            let declared = component.value.commandNames.compactMap { name -> CommandRegistration? in
                guard let key = component.value.commands[name]?.key, let (command, site) = commands[key] else {
                    return nil
                }
                return CommandRegistration(
                    component: component.value.name, name: name,
                    isReachableByURL: component.value.isReachableByURL(command),
                    isAsync: command.isAsync, site: site)
            }
            return ComponentRegistration(name: component.value.name, site: component.site, commands: declared)
        }.sorted { $0.name < $1.name }
    }

    /// A component as ``ServiceHive/components`` lists it: its name, where it was registered, and its commands.
    public struct ComponentRegistration: Hashable, Sendable, CustomStringConvertible {
        /// The component's name.
        public var name: String
        /// Where the component was registered, and by which module.
        public var site: RegistrationSite
        /// Its commands, sorted by name.
        public var commands: [CommandRegistration]

        /// Creates a description of a component.
        ///
        /// - Parameters:
        ///   - name: The component's name.
        ///   - site: Where it was registered.
        ///   - commands: Its commands.
        public init(name: String, site: RegistrationSite, commands: [CommandRegistration]) {
            self.name = name
            self.site = site
            self.commands = commands
        }

        /// The name of the module that registered the component, or `nil`.
        public var module: String? { site.module }

        /// `trade: order (URL), quote, track (async); module Trade, at TradeModule/TradeComponent.swift:20`.
        public var description: String {
            let commands = self.commands.map { command in
                let notes = [command.isReachableByURL ? "URL" : nil, command.isAsync ? "async" : nil].compactMap { $0 }
                return notes.isEmpty ? command.name : "\(command.name) (\(notes.joined(separator: ", ")))"
            }
            let module = site.module.map { "module \($0), " } ?? ""
            return "\(name): \(commands.joined(separator: ", ")); \(module)at \(site.fileID):\(site.line)"
        }
    }

    /// One command of a component, as ``ServiceHive/components`` lists it.
    public struct CommandRegistration: Hashable, Sendable, CustomStringConvertible {
        /// The name of the component that declares it.
        public var component: String
        /// The command's name.
        public var name: String
        /// Whether ``ServiceHive/open(_:callback:)`` may run it.
        public var isReachableByURL: Bool
        /// Whether it is `async`, so that only `async` calls and the completion-handler form run it.
        public var isAsync: Bool
        /// Where its implementation was declared, and by which module.
        public var site: RegistrationSite

        /// Creates a description of a command.
        ///
        /// - Parameters:
        ///   - component: The component's name.
        ///   - name: The command's name.
        ///   - isReachableByURL: Whether a URL may run it.
        ///   - isAsync: Whether it is `async`.
        ///   - site: Where it was declared.
        public init(component: String, name: String, isReachableByURL: Bool, isAsync: Bool, site: RegistrationSite) {
            self.component = component
            self.name = name
            self.isReachableByURL = isReachableByURL
            self.isAsync = isAsync
            self.site = site
        }

        /// The name of the module that declared the command, or `nil`.
        public var module: String? { site.module }

        /// `trade/order, reachable by URL, module Trade, at TradeModule/TradeComponent.swift:31`.
        public var description: String {
            var parts = ["\(component)/\(name)"]
            if isReachableByURL { parts.append("reachable by URL") }
            if isAsync { parts.append("async") }
            if let module = site.module { parts.append("module \(module)") }
            parts.append("at \(site.fileID):\(site.line)")
            return parts.joined(separator: ", ")
        }
    }
}
