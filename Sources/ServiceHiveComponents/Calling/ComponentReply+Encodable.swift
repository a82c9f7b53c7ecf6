import ServiceHive

extension ServiceHive.ComponentReply: Encodable {
    /// Encodes the reply as an object whose members are its values, by name: with `JSONEncoder`, a JSON object.
    ///
    /// ```swift
    /// let reply: ServiceHive.ComponentReply = ["total": 2_500, "tier": "standard", "lines": [["item": "hive-42"]]]
    /// let json = try JSONEncoder().encode(reply)  // {"lines":[{"item":"hive-42"}],"tier":"standard","total":2500}
    /// ```
    ///
    /// A value encodes as itself when it is `Encodable`: numbers, booleans, strings, dates, and values of your own
    /// `Encodable` types, through the encoder's strategies. An `[any Sendable]` encodes as an array and a
    /// `[String: any Sendable]` as an object, their elements by the same rules, and `nil` as `null`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` for a value that is none of these, naming its path in the reply, such as
    ///   `order.lines[2].when`, and the command that replied; or what a value's own `encode(to:)` throws.
    public func encode(to encoder: any Encoder) throws {
        try ReplyValue(value: values, origin: origin).encode(to: encoder)
    }
}

/// One value of a reply, or the whole of it, as `Encodable`.
private struct ReplyValue: Encodable {
    let value: any Sendable
    let origin: ValueOrigin

    func encode(to encoder: any Encoder) throws {
        if ArgumentConversion.isNil(value) {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        } else if let encodable = value as? any Encodable {
            // Through a container, so that the encoder applies its strategies, to dates for one.
            var container = encoder.singleValueContainer()
            try container.encode(encodable)
        } else if let members = value as? [String: any Sendable] {
            var container = encoder.container(keyedBy: NamedValueKey.self)
            for (name, member) in members {
                try container.encode(ReplyValue(value: member, origin: origin), forKey: NamedValueKey(name))
            }
        } else if let elements = value as? [any Sendable] {
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(ReplyValue(value: element, origin: origin))
            }
        } else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: notEncodable(at: encoder.codingPath)))
        }
    }

    /// Why the value at `codingPath` does not encode, and how to fix it.
    private func notEncodable(at codingPath: [any CodingKey]) -> String {
        let path = NamedValueDecoder.path(codingPath)
        let command = origin.component.isEmpty ? "" : " of \(origin.component)/\(origin.command)"
        return
            "The reply\(command) has \(ComponentError.quoted(path)) as \(ArgumentConversion.describe(value)), "
            + "which does not encode. To fix, reply with numbers, booleans, text, arrays, dictionaries, or values "
            + "of a type that conforms to Encodable."
    }
}
