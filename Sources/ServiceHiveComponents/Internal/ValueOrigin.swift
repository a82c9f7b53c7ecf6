import ServiceHive

/// Where a set of named values belongs, for the errors of reading them: the arguments of a call to a command, or
/// the reply of one.
@usableFromInline
struct ValueOrigin: Sendable {
    enum Role: Sendable {
        case arguments
        case reply
    }

    var component: String
    var command: String
    var role: Role

    // MARK: - Errors

    /// The error for a value `path` that is not there; `present` are the names there are at its level.
    func missing(_ path: String, present: [String]) -> ComponentError {
        switch role {
        case .arguments:
            return .missingArgument(component: component, command: command, argument: path, passed: present.sorted())
        case .reply:
            return .missingReplyValue(component: component, command: command, value: path, present: present.sorted())
        }
    }

    /// The error for a value `path` that does not convert to `expected`.
    func mismatch(_ path: String, expected: String, found: any Sendable) -> ComponentError {
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
    func conversionFailed(_ type: Any.Type, _ underlying: any Error) -> ComponentError {
        .conversionFailed(component: component, command: command, type: typeName(type), underlying: underlying)
    }
}

/// The name errors print for a type, as the hive prints it in its own errors: `TradeService` for `any TradeService`,
/// `Int` for `Swift.Int`.
func typeName(_ type: Any.Type) -> String {
    ServiceHive.ServiceKey(type).service
}
