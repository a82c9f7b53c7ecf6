import ServiceHive

/// Turns an `Encodable` value into named values: the arguments of a typed call, or the reply of a typed command.
///
/// Direct, without JSON: the value's properties become the dictionary's entries by their coding keys, a `String`
/// stays a `String` and an `Int` an `Int`; a nested value becomes a `[String: any Sendable]` or an `[any Sendable]`;
/// `nil` optionals are left out, as the synthesized `encode(to:)` leaves them out. The top level must encode as a
/// keyed container, such as a struct's; a type that encodes nothing, such as an empty struct, gives no values.
///
/// Measured against the weak-typed call (benchmarks 22 and 23, in `Benchmarks/README.md`): a typed call must cost at
/// most 3× a weak-typed one, so values of the common types are stored without an encoder of their own.
enum NamedValueEncoder {
    static func encode<Value: Encodable>(
        _ value: Value,
        origin: ValueOrigin
    ) throws(ComponentError) -> [String: any Sendable] {
        let encoder = ValueEncoder(codingPath: [])
        do {
            try value.encode(to: encoder)
        } catch let error as ComponentError {
            throw error
        } catch {
            throw origin.conversionFailed(Value.self, error)
        }
        switch encoder.storage {
        case .nothing:
            return [:]
        case .keyed(let keyed):
            return keyed.finish()
        case .unkeyed, .single:
            throw origin.conversionFailed(Value.self, NotNamed(type: typeName(Value.self)))
        }
    }

    /// Why a value that does not encode as named values cannot be arguments or a reply.
    struct NotNamed: Error, CustomStringConvertible {
        let type: String
        var description: String {
            "\(type) encodes as a single value or a list, but a command's arguments and reply are named values"
        }
    }
}

/// A value that encoders and decoders of named values store as it is.
protocol PlainValue: Sendable {}
extension String: PlainValue {}
extension Bool: PlainValue {}
extension Int: PlainValue {}
extension Int8: PlainValue {}
extension Int16: PlainValue {}
extension Int32: PlainValue {}
extension Int64: PlainValue {}
extension UInt: PlainValue {}
extension UInt8: PlainValue {}
extension UInt16: PlainValue {}
extension UInt32: PlainValue {}
extension UInt64: PlainValue {}
extension Double: PlainValue {}
extension Float: PlainValue {}

// MARK: - Storage

/// What one encoder has been given: nothing yet, named values, a list, or one value.
enum EncodedStorage {
    case nothing
    case keyed(KeyedStorage)
    case unkeyed(UnkeyedStorage)
    case single(any Sendable)

    /// The value this storage stands for, once encoding is done.
    func finish() -> (any Sendable)? {
        switch self {
        case .nothing: return nil
        case .keyed(let keyed): return keyed.finish()
        case .unkeyed(let unkeyed): return unkeyed.finish()
        case .single(let value): return value
        }
    }
}

/// Named values being encoded. A class, so that every container of one level writes to the same values.
final class KeyedStorage {
    /// Room for 8 values from the start: growing from empty reallocates at the second value, which cost 5% of the
    /// typed-call benchmark (at most 3× a weak-typed call).
    var values = [String: any Sendable](minimumCapacity: 8)
    /// Values whose encoding is not finished: nested containers and super encoders, read when this one finishes.
    var pending: [String: ValueEncoder] = [:]

    func finish() -> [String: any Sendable] {
        var values = values
        for (key, encoder) in pending {
            values[key] = encoder.storage.finish()
        }
        return values
    }
}

/// A list being encoded.
final class UnkeyedStorage {
    var values: [any Sendable] = []
    var pending: [(index: Int, encoder: ValueEncoder)] = []

    func finish() -> [any Sendable] {
        var values = values
        for (index, encoder) in pending {
            values[index] = encoder.storage.finish() ?? [String: any Sendable]()
        }
        return values
    }
}

// MARK: - Encoder

final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var storage = EncodedStorage.nothing

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed(let keyed) = storage {
            return KeyedEncodingContainer(KeyedValueContainer(storage: keyed, codingPath: codingPath))
        }
        let keyed = KeyedStorage()
        storage = .keyed(keyed)
        return KeyedEncodingContainer(KeyedValueContainer(storage: keyed, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed(let unkeyed) = storage {
            return UnkeyedValueContainer(storage: unkeyed, codingPath: codingPath)
        }
        let unkeyed = UnkeyedStorage()
        storage = .unkeyed(unkeyed)
        return UnkeyedValueContainer(storage: unkeyed, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(encoder: self)
    }

    /// `value` as a named value: as it is for a plain value, else what its `encode(to:)` gives.
    static func box<Value: Encodable>(_ value: Value, at codingPath: [any CodingKey]) throws -> any Sendable {
        if let plain = value as? any PlainValue { return plain }
        let encoder = ValueEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.storage.finish() ?? [String: any Sendable]()
    }
}

/// A coding key of a nested value: a name, or a position in a list.
struct NamedValueKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) { self.init(index: intValue) }
}
