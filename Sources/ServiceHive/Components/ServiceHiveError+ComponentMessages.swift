extension ServiceHiveError {
    /// The message of an error of a component call, ending with its code. The `description` of the errors of
    /// components comes here.
    var componentMessage: String {
        switch self {
        case .missingReplyValue, .replyValueTypeMismatch, .conversionFailed, .notReachableByURL, .invalidURL:
            return "\(replyOrURLText) (code \(code))"
        default:
            return "\(callText) (code \(code))"
        }
    }

    /// The text of an error of a call, or of a component or command name.
    private var callText: String {
        switch self {
        case let .componentNotFound(component, available):
            let registered =
                available.isEmpty
                ? "No components are registered"
                : "Registered components: \(available.joined(separator: ", "))"
            return
                "No component named \(Self.quoted(component)). \(registered).\(Self.suggestion(component, available))"
                + " To fix, call a registered component, or register this one: "
                + "try hive.registerComponent(\"\(component)\") { … }"

        case let .commandNotFound(component, command, available):
            let commands =
                available.isEmpty ? "It has no commands" : "Its commands: \(available.joined(separator: ", "))"
            return
                "\(component) has no command \(Self.quoted(command)). \(commands)."
                + "\(Self.suggestion(command, available)) To fix, call one of its commands, or declare this one in "
                + "its registerComponent."

        case let .commandIsAsync(component, command):
            return
                "\(component)/\(command) is async, so a synchronous call cannot run it. To fix, call it with "
                + "try await, or with the form that takes a completion handler."

        case let .missingArgument(component, command, argument, passed):
            let passes =
                passed.isEmpty ? "It passes no arguments" : "It passes: \(passed.sorted().joined(separator: ", "))"
            return
                "\(component)/\(command) needs the argument \(Self.quoted(argument)), which the call does not pass. "
                + "\(passes).\(Self.suggestion(argument, passed)) To fix, pass \(Self.quoted(argument)) in the "
                + "arguments."

        case let .argumentTypeMismatch(component, command, argument, expected, found):
            return
                "\(component)/\(command) reads the argument \(Self.quoted(argument)) as \(expected), but the call "
                + "passes \(found), which does not convert to \(expected) without loss. To fix, pass "
                + "\(Self.article(expected)) \(expected), or text that converts to one exactly."

        case let .commandFailed(component, command, underlying):
            return "\(component)/\(command) failed: \(Self.clause(underlying))."

        case .invalidComponentName(let name):
            return
                "\(Self.quoted(name)) is not a valid component or command name. To fix, use 1 to "
                + "\(ComponentNames.maximumLength) letters, digits, '-', '_' or '.', other than '.' and '..'."

        default:
            return description
        }
    }

    /// The text of an error of a reply, of a conversion or of a URL.
    private var replyOrURLText: String {
        switch self {
        case let .missingReplyValue(component, command, value, present):
            let values =
                present.isEmpty ? "It has no values" : "Its values: \(present.sorted().joined(separator: ", "))"
            return
                "The reply of \(component)/\(command) has no value \(Self.quoted(value)). "
                + "\(values).\(Self.suggestion(value, present)) To fix, read one of its values."

        case let .replyValueTypeMismatch(component, command, value, expected, found):
            return
                "The reply of \(component)/\(command) has \(Self.quoted(value)) as \(found), which does not "
                + "convert to \(expected) without loss. To fix, read it as the type the command replies with."

        case let .conversionFailed(component, command, type, underlying):
            return
                "Converting \(type) for \(component)/\(command) failed: \(Self.clause(underlying)). To fix, use a "
                + "Codable type whose values are named, such as a struct, and whose Codable code succeeds."

        case let .notReachableByURL(component, command, reachable):
            let listed =
                reachable.isEmpty
                ? "No command of \(component) is reachable by URL"
                : "Reachable by URL in \(component): \(reachable.joined(separator: ", "))"
            return
                "\(component)/\(command) is not reachable by URL. \(listed). To fix, call it from code; or, if "
                + "anyone outside the app may run it, declare it with command(\"\(command)\", reachableByURL: true), "
                + "and register no implementation in its place with reachableByURL: false."

        case let .invalidURL(url, problem):
            return "The URL \(url) was refused: \(problem). To fix, \(problem.fix)."

        default:
            return description
        }
    }

    /// `'name'`, with control characters escaped and long text shortened, so that hostile input prints on one line.
    static func quoted(_ text: String) -> String {
        "'\(ComponentNames.printable(text, limit: 80))'"
    }

    /// " Did you mean 'quote'?" when one of `candidates` is close to `name`, else nothing.
    private static func suggestion(_ name: String, _ candidates: [String]) -> String {
        guard let close = ComponentNames.suggestion(for: name, among: candidates) else { return "" }
        return " Did you mean \(quoted(close))?"
    }

    /// "an" before a vowel, else "a": "an Int", "a String".
    private static func article(_ word: String) -> String {
        guard let first = word.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
