import ServiceHive

/// The errors of components called by name: a call that nothing answers, an argument or a reply value that is missing
/// or does not convert, a URL that is refused, a command that failed, a name that is not valid. Each one names the
/// component and the command, and says how to fix the problem.
///
/// Every throwing API of ServiceHiveComponents is declared `throws`. What it throws about the component or the call
/// is a `ComponentError`, whose ``code`` and description are stable; what the hive itself refuses, such as a second
/// component of the same name (`ServiceHiveError.alreadyRegistered`) or a component that a strict `withOverrides` does
/// not override (`ServiceHiveError.notOverridden`), is a `ServiceHiveError`, as it is for any registration. Each
/// method's `Throws` says which.
///
/// ```swift
/// do {
///     let reply = try hive.call("trade", "qoute")
/// } catch let error as ComponentError {
///     print(error.code)  // 200
///     print(error)  // trade has no command 'qoute'. Its commands: order, quote, track. Did you mean 'quote'? …
/// }
/// ```
///
/// The codes of the first two cases are ATComponentService's, so apps that bridged its errors keep their codes.
///
/// New cases may be added in later versions, so a `switch` over the cases needs a `default`.
public indirect enum ComponentError: Error, CustomStringConvertible, Sendable {
    /// No component is registered under the name, and no fallback answered. Code 100.
    ///
    /// `available` lists the components the hive can call, sorted.
    case componentNotFound(String, available: [String])

    /// The component has no command of the name, and no fallback answered. Code 200.
    ///
    /// `available` lists the component's commands, sorted.
    case commandNotFound(component: String, command: String, available: [String])

    /// A synchronous call reached a command that is `async`. Code 201.
    case commandIsAsync(component: String, command: String)

    /// A command read an argument that the call does not pass. Code 300.
    ///
    /// `argument` is the argument's name, or its path for a nested value, such as `address.city`; `passed` lists
    /// the names the call does pass at that level.
    case missingArgument(component: String, command: String, argument: String, passed: [String])

    /// A command read an argument as a type that the value passed does not convert to without loss. Code 301.
    ///
    /// `found` describes the value passed and its type, such as `"two" (String)`.
    case argumentTypeMismatch(component: String, command: String, argument: String, expected: String, found: String)

    /// A caller read a value that a command's reply does not have. Code 302.
    case missingReplyValue(component: String, command: String, value: String, present: [String])

    /// A caller read a value of a command's reply as a type that it does not convert to without loss. Code 303.
    case replyValueTypeMismatch(component: String, command: String, value: String, expected: String, found: String)

    /// A typed value could not be converted to or from a command's arguments or reply: it is not a keyed value such
    /// as a struct, or its own `Codable` code threw. Code 304.
    case conversionFailed(component: String, command: String, type: String, underlying: any Error)

    /// A URL named a command that is not marked reachable by URL. Code 400.
    ///
    /// `reachable` lists the component's commands that are, sorted.
    case notReachableByURL(component: String, command: String, reachable: [String])

    /// A URL was refused before any lookup: it is malformed, too long, or hostile. Code 401.
    ///
    /// `url` is the URL as opened, shortened to 160 characters.
    case invalidURL(String, problem: URLProblem)

    /// A command threw an error of its own. Code 500.
    case commandFailed(component: String, command: String, underlying: any Error)

    /// A component or command name that ServiceHiveComponents does not accept was registered. Code 600.
    case invalidComponentName(String)
}
