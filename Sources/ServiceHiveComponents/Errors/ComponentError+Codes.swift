import ServiceHive

extension ComponentError {
    // MARK: - Codes

    /// A stable number for the error, for logs, analytics and apps that bridge errors to Objective-C.
    ///
    /// The codes start at 100 and 200, as AppTemplateLib's ATComponentService numbers "no component" and
    /// "unsupported command", so apps that bridged its errors keep their codes; they never overlap the codes of the
    /// hive's own `ServiceHiveError`, which are below 100:
    ///
    /// | Code | Case |
    /// | ---: | --- |
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
    /// A code never changes meaning; a new case gets a new code. The description of every error ends with its code,
    /// such as `(code 200)`.
    public var code: Int {
        switch self {
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

    /// Why ``ServiceHive/ServiceHive/open(_:callback:)`` refused a URL before looking anything up.
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
        /// Percent-escapes decode to bytes that are not UTF-8, such as `%FF` or `%C3%28`.
        ///
        /// A `%` without two hexadecimal digits after it does not reach ``ServiceHive/ServiceHive/open(_:callback:)`` as one:
        /// Foundation's `URL(string:)` refuses such text, or encodes the `%` as `%25`, so the command receives a
        /// literal `%`.
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
                return "\(ComponentError.quoted(name)) is not a valid component or command name"
            case .invalidPercentEncoding(let text):
                return "\(ComponentError.quoted(text)) has invalid percent-encoding"
            case .emptyKey:
                return "a query item has an empty key"
            case .repeatedKey(let key):
                return "it repeats the query key \(ComponentError.quoted(key))"
            case let .schemeNotAccepted(scheme, accepted):
                let schemes = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
                return
                    "its scheme \(ComponentError.quoted(scheme)) is not accepted; the accepted schemes are: "
                    + schemes
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
}
