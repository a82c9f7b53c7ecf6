import ServiceHive

extension ServiceHive {
    /// What a command answers: named values, which callers read by name and type.
    ///
    /// A command returns a dictionary literal; a caller reads its values with ``value(_:as:)``, which says what is
    /// missing or mismatched, or all of them at once with ``decode(_:)``:
    ///
    /// ```swift
    /// component.command("quote") { call in
    ///     ["total": 2_500, "tier": "standard"]
    /// }
    ///
    /// let reply = try hive.call("trade", "quote", arguments: ["item": "hive-42", "quantity": 2])
    /// let total: Int = try reply.value("total")
    /// ```
    ///
    /// Values are read as the arguments of a call are: exactly, or converted without loss, so `"2"` reads as `2` and
    /// `2` as `2.0`, but `"two"` and `2.5` do not read as `Int`.
    public struct ComponentReply: Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
        /// The reply's values, by name.
        public var values: [String: any Sendable]

        /// The command that replied, for the errors of reading the values; set by the hive.
        @usableFromInline
        var origin = ValueOrigin(component: "", command: "", role: .reply)

        /// Creates a reply with the given values.
        ///
        /// - Parameter values: The reply's values, by name.
        public init(_ values: [String: any Sendable] = [:]) {
            self.values = values
        }

        /// Creates a reply from a dictionary literal, such as `["total": 2_500]`. A name given twice keeps its last
        /// value.
        ///
        /// - Parameter elements: The names and values.
        @inlinable
        public init(dictionaryLiteral elements: (String, any Sendable)...) {
            // Inlined so that the command's module builds the dictionary with specialized code: unspecialized, this
            // literal cost 15% of the weak-typed call benchmark, which asks for at most 2× its floor.
            var values = [String: any Sendable](minimumCapacity: elements.count)
            for (name, value) in elements { values[name] = value }
            self.init(values)
        }

        /// The value named `name` as it is, or `nil` when the reply has none.
        ///
        /// - Parameter name: The value's name.
        public subscript(name: String) -> (any Sendable)? {
            values[name]
        }

        /// Reads the value named `name` as a `Value`: exactly, or converted without loss.
        ///
        /// ```swift
        /// let total: Int = try reply.value("total")
        /// let note = try reply.value("note", as: String?.self)  // nil when the reply has no note
        /// ```
        ///
        /// An `Optional` type reads a value that the reply does not have, or has as `nil`, as `nil`. A value that is
        /// there and does not convert throws, for an `Optional` type as for the type it wraps.
        ///
        /// - Parameters:
        ///   - name: The value's name.
        ///   - type: The type to read it as; inferred from the context when left out.
        /// - Returns: The value.
        /// - Throws: ``ComponentError/missingReplyValue(component:command:value:present:)`` when the reply has no
        ///   such value and `Value` is not optional, listing those it has;
        ///   ``ComponentError/replyValueTypeMismatch(component:command:value:expected:found:)`` when the value does
        ///   not convert, optional or not.
        @inlinable
        public func value<Value>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
            try read(name, in: values, as: Value.self)
        }

        /// Reads every value at once, as a `Decodable` type whose properties are the values' names.
        ///
        /// ```swift
        /// struct QuoteReply: Codable { var total: Int; var tier: String }
        /// let quote = try reply.decode(QuoteReply.self)
        /// ```
        ///
        /// - Parameter type: The type to decode.
        /// - Returns: The decoded value.
        /// - Throws: The errors of ``value(_:as:)``, naming the value's path for a nested one, such as
        ///   `address.city`; ``ComponentError/conversionFailed(component:command:type:underlying:)`` when the
        ///   type's own decoding code throws.
        public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
            try decodeAll(Value.self)
        }

        /// The values, sorted by name: `[status: "delivered", total: 2500]`.
        public var description: String {
            guard !values.isEmpty else { return "[:]" }
            let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key): \(String(reflecting: $0.value))" }
            return "[\(pairs.joined(separator: ", "))]"
        }

        /// This reply, marked as the reply of `component`/`command`.
        func stamped(_ component: String, _ command: String) -> ComponentReply {
            var reply = self
            reply.origin = ValueOrigin(component: component, command: command, role: .reply)
            return reply
        }
    }
}

extension ServiceHive.ComponentReply: NamedValues {
    @usableFromInline
    var namedValues: [String: any Sendable] { values }
}
