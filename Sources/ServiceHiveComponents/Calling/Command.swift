import ServiceHive

extension ServiceHive {
    /// A typed name for one command of a component: what a component's author publishes so that callers never touch
    /// the argument dictionary.
    ///
    /// The author declares the descriptor once, in a module that callers may import without importing the
    /// implementation, as AppTemplateLib's categories and CTMediator's category methods are published:
    ///
    /// ```swift
    /// struct QuoteRequest: Codable, Sendable { var item: String; var quantity: Int }
    /// struct QuoteReply: Codable, Sendable { var total: Int }
    ///
    /// extension ServiceHive.Command where Input == QuoteRequest, Output == QuoteReply {
    ///     static var tradeQuote: Self { .init(component: "trade", name: "quote") }
    /// }
    /// ```
    ///
    /// Callers then call it with a value and get a value:
    ///
    /// ```swift
    /// let quote = try await hive.call(.tradeQuote, QuoteRequest(item: "hive-42", quantity: 2))
    /// ```
    ///
    /// The input's properties become the call's arguments, by their coding keys and with their own types, and the
    /// reply's values become the output's properties, so a typed caller and a weak-typed caller of the same command
    /// see the same arguments and the same reply. The conversion is direct, without JSON: a `String` stays a
    /// `String`, an `Int` an `Int`, a nested value becomes a nested dictionary or array. Reading converts without
    /// loss as ``ComponentCall/argument(_:as:)`` does, so a typed command also answers a URL, whose values are text.
    public struct Command<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable, Hashable,
        CustomStringConvertible
    {
        /// The component's name.
        public let component: String
        /// The command's name.
        public let name: String

        /// Creates the descriptor of a command.
        ///
        /// - Parameters:
        ///   - component: The component's name, such as `trade`.
        ///   - name: The command's name, such as `quote`.
        public init(component: String, name: String) {
            self.component = component
            self.name = name
        }

        /// `trade/quote`.
        public var description: String { "\(component)/\(name)" }

        // MARK: - Converting

        /// The arguments of a call with `input`.
        func arguments(from input: Input) throws(ComponentError) -> [String: any Sendable] {
            try NamedValueEncoder.encode(
                input, origin: ValueOrigin(component: component, command: name, role: .arguments))
        }

        /// The output that `reply` decodes as.
        func output(from reply: ComponentReply) throws(ComponentError) -> Output {
            try NamedValueDecoder.decode(Output.self, from: reply.values, origin: reply.origin)
        }

        /// The weak-typed body of a typed synchronous handler: decodes the input, runs the handler, encodes the
        /// output.
        static func body(
            _ handler: @escaping @Sendable (Input, ComponentCall) throws -> Output
        ) -> @Sendable (ComponentCall) throws -> ComponentReply {
            { call in
                let input = try NamedValueDecoder.decode(Input.self, from: call.arguments, origin: call.origin)
                return try reply(to: call, with: handler(input, call))
            }
        }

        /// The weak-typed body of a typed `async` handler.
        static func body(
            _ handler: @escaping @Sendable (Input, ComponentCall) async throws -> Output
        ) -> @Sendable (ComponentCall) async throws -> ComponentReply {
            { call in
                let input = try NamedValueDecoder.decode(Input.self, from: call.arguments, origin: call.origin)
                return try await reply(to: call, with: handler(input, call))
            }
        }

        /// The reply whose values are `output`'s properties.
        private static func reply(to call: ComponentCall, with output: Output) throws(ComponentError)
            -> ComponentReply
        {
            // Converting the output fails as a conversion of this call, which the caller receives as it is.
            let origin = ValueOrigin(component: call.component, command: call.command, role: .arguments)
            return ComponentReply(try NamedValueEncoder.encode(output, origin: origin))
        }
    }
}
