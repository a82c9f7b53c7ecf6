extension ServiceHiveError {
    // MARK: - Codes

    /// A stable number for the error, for logs, analytics and apps that bridge errors to Objective-C.
    ///
    /// The codes of components called by name start at 100 and 200, as AppTemplateLib's ATComponentService numbers
    /// "no component" and "unsupported command", so apps that bridged its errors keep their codes:
    ///
    /// | Code | Case |
    /// | ---: | --- |
    /// | 1 | ``notRegistered(_:chain:)`` |
    /// | 2 | ``alreadyRegistered(_:existing:rejected:)`` |
    /// | 3 | ``circularDependency(_:)`` |
    /// | 4 | ``factoryFailed(_:chain:underlying:)`` |
    /// | 5 | ``argumentMismatch(_:registered:chain:)`` |
    /// | 6 | ``weakRequiresClass(_:instanceType:)`` |
    /// | 7 | ``resolutionTooDeep(_:chain:limit:)`` |
    /// | 8 | ``stackExhausted(_:chain:)`` |
    /// | 9 | ``moduleFailed(module:stage:underlying:)`` |
    /// | 10 | ``hiveReleased(_:)`` |
    /// | 11 | ``notOverridden(_:chain:)`` |
    /// | 12 | ``requiresAsync(_:chain:)`` |
    /// | 13 | ``registrationRefused(_:reason:fix:)`` |
    /// | 14 | ``notSendable(_:chain:)`` |
    /// | 100 | ``componentNotFound(_:available:)`` |
    /// | 200 | ``commandNotFound(component:command:available:)`` |
    /// | 201 | ``commandIsAsync(component:command:)`` |
    /// | 300 | ``missingArgument(component:command:argument:passed:)`` |
    /// | 301 | ``argumentTypeMismatch(component:command:argument:expected:found:)`` |
    /// | 302 | ``missingReplyValue(component:command:value:present:)`` |
    /// | 303 | ``replyValueTypeMismatch(component:command:value:expected:found:)`` |
    /// | 304 | ``conversionFailed(component:command:type:underlying:)`` |
    /// | 400 | ``notReachableByURL(component:command:reachable:)`` |
    /// | 401 | ``invalidURL(_:problem:)`` |
    /// | 500 | ``commandFailed(component:command:underlying:)`` |
    /// | 600 | ``invalidComponentName(_:)`` |
    ///
    /// A code never changes meaning; a new case gets a new code. The description of every error of a component call
    /// ends with its code, such as `(code 200)`.
    public var code: Int {
        switch self {
        case .notRegistered: 1
        case .alreadyRegistered: 2
        case .circularDependency: 3
        case .factoryFailed: 4
        case .argumentMismatch: 5
        case .weakRequiresClass: 6
        case .resolutionTooDeep: 7
        case .stackExhausted: 8
        case .moduleFailed: 9
        case .hiveReleased: 10
        case .notOverridden: 11
        case .requiresAsync: 12
        case .registrationRefused: 13
        case .notSendable: 14
        case .componentNotFound: 100
        case .commandNotFound: 200
        case .commandIsAsync: 201
        case .missingArgument: 300
        case .argumentTypeMismatch: 301
        case .missingReplyValue: 302
        case .replyValueTypeMismatch: 303
        case .conversionFailed: 304
        case .notReachableByURL: 400
        case .invalidURL: 401
        case .commandFailed: 500
        case .invalidComponentName: 600
        }
    }

    // MARK: - URL problems

    /// Why ``ServiceHive/ServiceHive/open(_:)`` refused a URL before looking anything up.
    public enum URLProblem: Sendable, Hashable, CustomStringConvertible {
        /// The URL's text is longer than ``ServiceHive/ServiceHive/maximumURLLength`` bytes.
        case tooLong(length: Int, limit: Int)
        /// The URL does not start with `scheme://component`.
        case notAComponentURL
        /// The URL names a component but no command: it has no path, or only `/`.
        case missingCommand
        /// The path has more than one segment, such as `/order/extra` or `/order/`.
        case extraPathSegments(String)
        /// A component or command name, once percent-decoded, is not a valid name: it contains `/`, is `..`, or has
        /// a character outside letters, digits, `-`, `_` and `.`.
        case invalidName(String)
        /// A `%` is not followed by two hexadecimal digits, or the decoded bytes are not UTF-8.
        case invalidPercentEncoding(String)
        /// A query item has an empty key, such as `?=2` or `?a=1&&b=2`.
        case emptyKey
        /// A query key appears more than once.
        case repeatedKey(String)
        /// The hive accepts only some schemes, with ``ServiceHive/ServiceHive/acceptURLSchemes(_:file:line:)``,
        /// and this is not one of them.
        case schemeNotAccepted(String, accepted: [String])

        /// The problem, as a clause: `it repeats the query key 'item'`.
        public var description: String {
            switch self {
            case let .tooLong(length, limit):
                return "it is \(length) bytes long, and the limit is \(limit)"
            case .notAComponentURL:
                return "it does not start with scheme://component"
            case .missingCommand:
                return "it names no command"
            case .extraPathSegments(let path):
                return "its path \(path) has more than one segment"
            case .invalidName(let name):
                return "\(ServiceHiveError.quoted(name)) is not a valid component or command name"
            case .invalidPercentEncoding(let text):
                return "\(ServiceHiveError.quoted(text)) has invalid percent-encoding"
            case .emptyKey:
                return "a query item has an empty key"
            case .repeatedKey(let key):
                return "it repeats the query key \(ServiceHiveError.quoted(key))"
            case let .schemeNotAccepted(scheme, accepted):
                let schemes = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
                return
                    "its scheme \(ServiceHiveError.quoted(scheme)) is not accepted; the accepted schemes are: \(schemes)"
            }
        }

        /// How to fix it, as a clause after "To fix, ".
        var fix: String {
            switch self {
            case .tooLong:
                return "pass large values some other way than in a URL"
            case .notAComponentURL, .missingCommand, .extraPathSegments:
                return "open a URL of the form scheme://component/command?key=value"
            case .invalidName:
                return "name a registered component and command; names are letters, digits, '-', '_' and '.'"
            case .invalidPercentEncoding:
                return "percent-encode the URL's text as UTF-8, with two hexadecimal digits after each '%'"
            case .emptyKey:
                return "give every query item a key, and remove stray '&'"
            case .repeatedKey:
                return "pass each key once"
            case .schemeNotAccepted:
                return "open it with an accepted scheme, or add this one to hive.acceptURLSchemes"
            }
        }
    }

    // MARK: - Messages

    /// The message of an error of a component call, ending with its code. The `description` of the errors of
    /// components comes here.
    var componentMessage: String {
        let text: String
        switch self {
        case let .componentNotFound(component, available):
            let registered =
                available.isEmpty
                ? "No components are registered"
                : "Registered components: \(available.joined(separator: ", "))"
            text =
                "No component named \(Self.quoted(component)). \(registered).\(Self.suggestion(component, available))"
                + " To fix, call a registered component, or register this one: "
                + "try hive.registerComponent(\"\(component)\") { … }"

        case let .commandNotFound(component, command, available):
            let commands =
                available.isEmpty ? "It has no commands" : "Its commands: \(available.joined(separator: ", "))"
            text =
                "\(component) has no command \(Self.quoted(command)). \(commands).\(Self.suggestion(command, available))"
                + " To fix, call one of its commands, or declare this one in its registerComponent."

        case let .commandIsAsync(component, command):
            text =
                "\(component)/\(command) is async, so a synchronous call cannot run it. To fix, call it with "
                + "try await, or with the form that takes a completion handler."

        case let .missingArgument(component, command, argument, passed):
            let passes =
                passed.isEmpty ? "It passes no arguments" : "It passes: \(passed.sorted().joined(separator: ", "))"
            text =
                "\(component)/\(command) needs the argument \(Self.quoted(argument)), which the call does not pass. "
                + "\(passes).\(Self.suggestion(argument, passed)) To fix, pass \(Self.quoted(argument)) in the "
                + "arguments."

        case let .argumentTypeMismatch(component, command, argument, expected, found):
            text =
                "\(component)/\(command) reads the argument \(Self.quoted(argument)) as \(expected), but the call "
                + "passes \(found), which does not convert to \(expected) without loss. To fix, pass "
                + "\(Self.article(expected)) \(expected), or text that converts to one exactly."

        case let .missingReplyValue(component, command, value, present):
            let values =
                present.isEmpty ? "It has no values" : "Its values: \(present.sorted().joined(separator: ", "))"
            text =
                "The reply of \(component)/\(command) has no value \(Self.quoted(value)). "
                + "\(values).\(Self.suggestion(value, present)) To fix, read one of its values."

        case let .replyValueTypeMismatch(component, command, value, expected, found):
            text =
                "The reply of \(component)/\(command) has \(Self.quoted(value)) as \(found), which does not "
                + "convert to \(expected) without loss. To fix, read it as the type the command replies with."

        case let .conversionFailed(component, command, type, underlying):
            text =
                "Converting \(type) for \(component)/\(command) failed: \(Self.clause(underlying)). To fix, use a "
                + "Codable type whose values are named, such as a struct, and whose Codable code succeeds."

        case let .notReachableByURL(component, command, reachable):
            let listed =
                reachable.isEmpty
                ? "No command of \(component) is reachable by URL"
                : "Reachable by URL in \(component): \(reachable.joined(separator: ", "))"
            text =
                "\(component)/\(command) is not reachable by URL. \(listed). To fix, call it from code; or, if "
                + "anyone outside the app may run it, declare it with command(\"\(command)\", reachableByURL: true)."

        case let .invalidURL(url, problem):
            text = "The URL \(url) was refused: \(problem). To fix, \(problem.fix)."

        case let .commandFailed(component, command, underlying):
            text = "\(component)/\(command) failed: \(Self.clause(underlying))."

        case .invalidComponentName(let name):
            text =
                "\(Self.quoted(name)) is not a valid component or command name. To fix, use 1 to "
                + "\(ComponentNames.maximumLength) letters, digits, '-', '_' or '.', other than '.' and '..'."

        default:
            return description
        }
        return "\(text) (code \(code))"
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

    /// An error's description without its final period, to go inside a sentence.
    private static func clause(_ error: any Error) -> String {
        let text = "\(error)"
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// "an" before a vowel, else "a": "an Int", "a String".
    private static func article(_ word: String) -> String {
        guard let first = word.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
