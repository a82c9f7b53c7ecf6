import ServiceHive

extension ComponentError {
    /// The message, in one line: what went wrong, in which component and command, and how to fix it, ending with the
    /// error's ``code``.
    public var description: String {
        switch self {
        case .componentNotFound, .commandNotFound, .commandIsAsync, .missingArgument, .argumentTypeMismatch,
            .commandFailed, .invalidComponentName:
            return "\(callText) (code \(code))"
        case .missingReplyValue, .replyValueTypeMismatch, .conversionFailed, .notReachableByURL, .invalidURL:
            return "\(replyOrURLText) (code \(code))"
        }
    }

    /// The text of an error of a call, or of a component or command name.
    private var callText: String {
        switch self {
        case let .componentNotFound(component, available):
            let registered = Self.listing(
                available, as: "Registered components", none: "No components are registered", near: component)
            return
                "No component named \(Self.quoted(component)). \(registered) To fix, call a registered component, or "
                + "register this one: try hive.registerComponent(\"\(component)\") { … }"

        case let .commandNotFound(component, command, available):
            let commands = Self.listing(available, as: "Its commands", none: "It has no commands", near: command)
            return
                "\(component) has no command \(Self.quoted(command)). \(commands) To fix, call one of its commands, or "
                + "declare this one in its registerComponent."

        case let .commandIsAsync(component, command):
            return
                "\(component)/\(command) is async, so a synchronous call cannot run it. To fix, call it with "
                + "try await, or with the form that takes a completion handler."

        case let .missingArgument(component, command, argument, passed):
            let passes = Self.listing(passed, as: "It passes", none: "It passes no arguments", near: argument)
            return
                "\(component)/\(command) needs the argument \(Self.quoted(argument)), which the call does not pass. "
                + "\(passes) To fix, pass \(Self.quoted(argument)) in the arguments."

        case let .argumentTypeMismatch(component, command, argument, expected, found):
            return
                "\(component)/\(command) reads the argument \(Self.quoted(argument)) as \(expected), but the call "
                + "passes \(found), which does not convert to \(expected) without loss. To fix, pass "
                + "\(Self.article(expected)) \(expected), or text that converts to one exactly."

        case let .commandFailed(component, command, underlying):
            return "\(component)/\(command) failed: \(ServiceHiveError.clause(underlying))."

        case .invalidComponentName(let name):
            return
                "\(Self.quoted(name)) is not a valid component or command name. To fix, use 1 to "
                + "\(ComponentNames.maximumLength) letters, digits, '-', '_' or '.', other than '.' and '..'."

        default:
            return unrouted
        }
    }

    /// The text of an error of a reply, of a conversion or of a URL.
    private var replyOrURLText: String {
        switch self {
        case let .missingReplyValue(component, command, value, present):
            let values = Self.listing(present, as: "Its values", none: "It has no values", near: value)
            return
                "The reply of \(component)/\(command) has no value \(Self.quoted(value)). \(values) To fix, read one of "
                + "its values."

        case let .replyValueTypeMismatch(component, command, value, expected, found):
            return
                "The reply of \(component)/\(command) has \(Self.quoted(value)) as \(found), which does not "
                + "convert to \(expected) without loss. To fix, read it as the type the command replies with."

        case let .conversionFailed(component, command, type, underlying):
            return
                "Converting \(type) for \(component)/\(command) failed: \(ServiceHiveError.clause(underlying)). To fix, use a "
                + "Codable type whose values are named, such as a struct, and whose Codable code succeeds."

        case let .notReachableByURL(component, command, reachable):
            let listed = Self.listing(
                reachable, as: "Reachable by URL in \(component)",
                none: "No command of \(component) is reachable by URL")
            return
                "\(component)/\(command) is not reachable by URL. \(listed) To fix, call it from code; or, if "
                + "anyone outside the app may run it, declare it with command(\"\(command)\", reachableByURL: true), "
                + "and register no implementation in its place with reachableByURL: false."

        case let .invalidURL(url, problem):
            return "The URL \(url) was refused: \(problem). To fix, \(problem.fix)."

        default:
            return unrouted
        }
    }

    /// The text of a case that `description` sends to the other group's text; never shown, as `description` routes
    /// every case to the group that words it.
    private var unrouted: String { "ComponentError" }

    /// `'name'`, with control characters escaped and long text shortened, so that hostile input prints on one line.
    static func quoted(_ text: String) -> String {
        "'\(ComponentNames.printable(text, limit: 80))'"
    }

    /// "Its commands: order, quote. Did you mean 'quote'?": the names there are, sorted, after `label`, or `none`
    /// when there are none; then the one closest to `name`, when one is close.
    private static func listing(_ names: [String], as label: String, none: String, near name: String? = nil) -> String {
        let listed = names.isEmpty ? "\(none)." : "\(label): \(names.sorted().joined(separator: ", "))."
        guard let name, let close = ComponentNames.suggestion(for: name, among: names) else { return listed }
        return "\(listed) Did you mean \(quoted(close))?"
    }

    /// "an" before a vowel, else "a": "an Int", "a String".
    private static func article(_ word: String) -> String {
        guard let first = word.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
