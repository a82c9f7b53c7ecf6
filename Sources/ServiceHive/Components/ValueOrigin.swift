/// Where a set of named values belongs, for the errors of reading them: the arguments of a call to a command, or
/// the reply of one.
struct ValueOrigin: Sendable {
    enum Role: Sendable {
        case arguments
        case reply
    }

    var component: String
    var command: String
    var role: Role

    /// Reads the value named `name` as a `Value`; a missing or `nil` value reads as `nil` when `Value` is optional.
    func read<Value>(
        _ name: String,
        in values: [String: any Sendable],
        as _: Value.Type
    ) throws(ServiceHiveError) -> Value {
        if let value = values[name] {
            if let exact = value as? Value { return exact }  // The common case, with one cast.
            if let text = value as? String {  // Every value from a URL.
                guard let converted = ArgumentConversion.convert(text: text, to: Value.self) else {
                    throw mismatch(name, expected: typeName(Value.self), found: value)
                }
                return converted
            }
            if !ArgumentConversion.isNil(value) {
                guard let converted = ArgumentConversion.convertInexactly(value, to: Value.self) else {
                    throw mismatch(name, expected: typeName(Value.self), found: value)
                }
                return converted
            }
        }
        guard let optional = Value.self as? any OptionalArgument.Type else {
            throw missing(name, present: Array(values.keys))
        }
        // Safe: `optional` is `Value.self`, so its `nothing` is a `Value`.
        return optional.nothing as! Value
    }

    // MARK: - Errors

    /// The error for a value `path` that is not there; `present` are the names there are at its level.
    func missing(_ path: String, present: [String]) -> ServiceHiveError {
        switch role {
        case .arguments:
            return .missingArgument(component: component, command: command, argument: path, passed: present.sorted())
        case .reply:
            return .missingReplyValue(component: component, command: command, value: path, present: present.sorted())
        }
    }

    /// The error for a value `path` that does not convert to `expected`.
    func mismatch(_ path: String, expected: String, found: any Sendable) -> ServiceHiveError {
        let found = ArgumentConversion.describe(found)
        switch role {
        case .arguments:
            return .argumentTypeMismatch(
                component: component, command: command, argument: path, expected: expected, found: found)
        case .reply:
            return .replyValueTypeMismatch(
                component: component, command: command, value: path, expected: expected, found: found)
        }
    }

    /// The error for a typed value whose conversion failed for another reason.
    func conversionFailed(_ type: Any.Type, _ underlying: any Error) -> ServiceHiveError {
        .conversionFailed(component: component, command: command, type: typeName(type), underlying: underlying)
    }
}
