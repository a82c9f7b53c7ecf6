import ServiceHive

/// How a value of a call's arguments or of a reply is read as a type: exactly, or converted without loss.
///
/// - The value itself, when it is of the type.
/// - Text, such as every value from a URL, for a type that converts from text exactly (`LosslessStringConvertible`):
///   `"2"` reads as `2`, `"true"` as `true`, `"2.5"` as `2.5`; `"two"` and `"2.5"` do not read as `Int`.
/// - A number of another numeric type, when the value converts exactly: `2` reads as `Int32` or `Double`, `2.0` as
///   `Int`; `2.5` does not read as `Int`, nor `300` as `Int8`.
/// - For an `Optional` type, a `nil` reads as `nil`, and any other value as it converts to the wrapped type; a value
///   that does not convert is no more `nil` than it is for the wrapped type.
enum ArgumentConversion {
    /// `value` as a `Value`, or `nil` when it does not convert without loss.
    static func convert<Value>(_ value: any Sendable, to _: Value.Type) -> Value? {
        if let exact = value as? Value { return exact }
        return convertInexactly(value, to: Value.self)
    }

    /// `value`, which is not a `Value`, converted to one; `nil` when it does not convert without loss.
    ///
    /// Text is tried first, because every value from a URL is text, and each protocol check is a lookup in the
    /// runtime's conformance cache: the `open(_:)` benchmark asks for at most 3 µs.
    static func convertInexactly<Value>(_ value: any Sendable, to _: Value.Type) -> Value? {
        if let text = value as? String { return convert(text: text, to: Value.self) }
        if let optional = Value.self as? any OptionalArgument.Type {
            return wrapped(value, in: optional, as: Value.self)
        }
        if let integer = Value.self as? any BinaryInteger.Type {
            return exactInteger(value, as: integer) as? Value
        }
        if let floating = Value.self as? any BinaryFloatingPoint.Type {
            return exactFloatingPoint(value, as: floating) as? Value
        }
        return nil
    }

    /// Whether `value` stands for no value: a `nil` that was stored as an optional.
    static func isNil(_ value: any Sendable) -> Bool {
        (value as? any OptionalArgument)?.isNone ?? false
    }

    /// `value` and its type, as errors show it: `"two" (String)`, `2.5 (Double)`.
    static func describe(_ value: any Sendable) -> String {
        let shown = ComponentNames.printable(String(reflecting: value), limit: 60)
        return "\(shown) (\(typeName(type(of: value))))"
    }

    /// `text` converted exactly to a `Value`; `nil` when it does not convert.
    ///
    /// `Int`, `Bool` and `Double`, the types URL values are read as most, are recognized by identity, which costs a
    /// compare instead of two lookups in the conformance cache: measured by the `open(_:)` benchmark, 3 µs at most.
    static func convert<Value>(text: String, to _: Value.Type) -> Value? {
        // Safe: each `unsafeBitCast` converts a value to its own type, which the identity check before it proves.
        if Value.self == Int.self { return Int(text).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == Bool.self { return Bool(text).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == Double.self { return Double(text).map { unsafeBitCast($0, to: Value.self) } }
        if let convertible = Value.self as? any LosslessStringConvertible.Type {
            return fromText(text, as: convertible) as? Value
        }
        guard let optional = Value.self as? any OptionalArgument.Type else { return nil }
        return wrapped(text, in: optional, as: Value.self)
    }

    /// `value` converted to the type an optional `Value` wraps, and wrapped; `nil` when it does not convert.
    ///
    /// `optional` is `Value.self`. Only a value that converted is cast: `nil` cast to an optional type succeeds, as
    /// the optional's `nil`, which would read a value that does not convert as an absent one.
    private static func wrapped<Value>(
        _ value: any Sendable,
        in optional: any OptionalArgument.Type,
        as _: Value.Type
    ) -> Value? {
        guard let converted = optional.converting(value) else { return nil }
        return converted as? Value
    }

    // MARK: - Conversions

    private static func fromText<Target: LosslessStringConvertible>(_ text: String, as _: Target.Type) -> Target? {
        Target(text)
    }

    private static func exactInteger<Target: BinaryInteger>(_ value: any Sendable, as _: Target.Type) -> Target? {
        if let integer = value as? any BinaryInteger { return Target(exactly: integer) }
        if let floating = value as? any BinaryFloatingPoint { return exactInteger(from: floating, as: Target.self) }
        return nil
    }

    private static func exactInteger<Source: BinaryFloatingPoint, Target: BinaryInteger>(
        from value: Source,
        as _: Target.Type
    ) -> Target? {
        Target(exactly: value)
    }

    private static func exactFloatingPoint<Target: BinaryFloatingPoint>(
        _ value: any Sendable,
        as _: Target.Type
    ) -> Target? {
        if let integer = value as? any BinaryInteger { return Target(exactly: integer) }
        if let floating = value as? any BinaryFloatingPoint {
            return exactFloatingPoint(from: floating, as: Target.self)
        }
        return nil
    }

    private static func exactFloatingPoint<Source: BinaryFloatingPoint, Target: BinaryFloatingPoint>(
        from value: Source,
        as _: Target.Type
    ) -> Target? {
        if value.isNaN { return Target.nan }
        return Target(exactly: value)
    }
}

/// An `Optional`, seen without knowing what it wraps.
protocol OptionalArgument {
    /// Whether this is `nil`.
    var isNone: Bool { get }

    /// `value` converted to the wrapped type and wrapped; a `nil` of this type when `value` is `nil`; and `nil`
    /// when it does not convert.
    static func converting(_ value: any Sendable) -> Self?

    /// `nil` of this type.
    static var nothing: Self { get }
}

extension Optional: OptionalArgument {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    static func converting(_ value: any Sendable) -> Self? {
        if ArgumentConversion.isNil(value) { return .some(.none) }
        return ArgumentConversion.convert(value, to: Wrapped.self).map { .some($0) }
    }

    static var nothing: Self { .none }
}
