import ServiceHive

/// Values by name, read by name and type: the arguments of a ``ServiceHive/ComponentCall`` and the values of a
/// ``ServiceHive/ComponentReply``, which are read the one same way and differ only in the errors' wording.
///
/// A value is read exactly, or converted without loss by ``ArgumentConversion``. An optional type reads a value that
/// is missing, or stored as `nil`, as `nil`; a value that is there and does not convert is a mismatch for an optional
/// type as for any other, so that a wrong value is never taken for an absent one.
@usableFromInline
protocol NamedValues {
    /// The values, by name.
    var namedValues: [String: any Sendable] { get }
    /// Where the values belong, for errors.
    var origin: ValueOrigin { get }
}

extension NamedValues {
    /// The value named `name` as a `Value`; `values` are ``namedValues``.
    ///
    /// The caller passes the values it stores, which this borrows: reading them through ``namedValues`` instead
    /// copies the dictionary, which cost 3.7% of `count-instructions 22`, a weak-typed call (6,219 instructions
    /// against 6,000).
    @inlinable
    func read<Value>(_ name: String, in values: [String: any Sendable], as _: Value.Type) throws -> Value {
        // Inlined so that the caller's specialization reads the common, exact case with one static cast: the
        // weak-typed call benchmark asks for at most 2× its floor, and unspecialized reads cost 10% of a call.
        if let exact = values[name] as? Value { return exact }
        return try readConverted(name, as: Value.self)
    }

    /// The value named `name`, which is not exactly a `Value`: converted, `nil` for an optional, or an error.
    @usableFromInline
    func readConverted<Value>(_ name: String, as _: Value.Type) throws -> Value {
        let values = namedValues
        if let value = values[name] {
            if let converted = ArgumentConversion.convertInexactly(value, to: Value.self) { return converted }
            guard ArgumentConversion.isNil(value) else {
                throw origin.mismatch(name, expected: typeName(Value.self), found: value)
            }
        }
        guard let optional = Value.self as? any OptionalArgument.Type else {
            throw origin.missing(name, present: Array(values.keys))
        }
        // Safe: `optional` is `Value.self`, so its `nothing` is a `Value`.
        return optional.nothing as! Value
    }

    /// Every value at once, as a `Decodable` type whose properties are the values' names.
    func decodeAll<Value: Decodable>(_: Value.Type) throws -> Value {
        try NamedValueDecoder.decode(Value.self, from: namedValues, origin: origin)
    }
}
