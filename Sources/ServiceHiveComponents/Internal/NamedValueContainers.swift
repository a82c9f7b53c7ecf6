import ServiceHive

/// `NamedValueEncoder`'s keyed container: writes each value into a `KeyedStorage` under its key's name.
struct KeyedValueContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: KeyedStorage
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        storage.values.removeValue(forKey: key.stringValue)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: String, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Double, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Float, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Int, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Int8, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Int16, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Int32, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: Int64, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: UInt, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { storage.values[key.stringValue] = value }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { storage.values[key.stringValue] = value }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        storage.values[key.stringValue] = try ValueEncoder.box(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nestedEncoder(for: NamedValueKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedEncoder(for: key)
    }

    private func nestedEncoder(for key: any CodingKey) -> ValueEncoder {
        let encoder = ValueEncoder(codingPath: codingPath + [key])
        storage.values.removeValue(forKey: key.stringValue)
        storage.pending[key.stringValue] = encoder
        return encoder
    }
}

/// `NamedValueEncoder`'s unkeyed container: appends each value to an `UnkeyedStorage`.
struct UnkeyedValueContainer: UnkeyedEncodingContainer {
    let storage: UnkeyedStorage
    let codingPath: [any CodingKey]

    var count: Int { storage.values.count }

    private var nextKey: any CodingKey { NamedValueKey(index: storage.values.count) }

    mutating func encodeNil() throws {
        storage.values.append(String?.none)
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        storage.values.append(try ValueEncoder.box(value, at: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        nestedEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nestedEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nestedEncoder()
    }

    private func nestedEncoder() -> ValueEncoder {
        let encoder = ValueEncoder(codingPath: codingPath + [nextKey])
        storage.pending.append((storage.values.count, encoder))
        storage.values.append([String: any Sendable]())
        return encoder
    }
}

/// `NamedValueEncoder`'s single-value container: stores the one value it is given.
struct SingleValueWriter: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.storage = .single(String?.none)
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        encoder.storage = .single(try ValueEncoder.box(value, at: codingPath))
    }
}
