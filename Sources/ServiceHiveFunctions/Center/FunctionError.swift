import ServiceHive

/// Why a ``FunctionCenter`` could not find the function of a key.
///
/// ``FunctionCenter/attach(_:to:delegate:userInfo:)`` throws it, before it changes anything, when it looks up a key's
/// function in the hive and the lookup fails. Each case keeps the `ServiceHiveError` that the hive threw.
///
/// ```swift
/// do {
///     try center.attach(badge, to: .cartBadge)
/// } catch let error as FunctionError {
///     print(error)  // No function is registered for trade.cart-badge (BadgeLabel, Int). …
/// }
/// ```
///
/// New cases may be added in later versions, so a `switch` over the cases needs a `default`.
public enum FunctionError: Error, CustomStringConvertible, Sendable {
    /// The hive has no function for the key: the module that declares the key has not registered one, or was not
    /// installed in this hive.
    ///
    /// `key` is the key's description, `declaredAt` is where it is declared, as `Module/File.swift:line`, and
    /// `underlying` is the hive's own `notRegistered` error.
    case notRegistered(key: String, declaredAt: String, underlying: ServiceHiveError)

    /// The hive has a function for the key, but building it failed: its factory threw, needed a service that is
    /// missing, or a strict `withOverrides` did not override it. `underlying` says which.
    case unavailable(key: String, underlying: ServiceHiveError)

    /// The message, in one line: which key, what went wrong, and how to fix it.
    public var description: String {
        switch self {
        case let .notRegistered(key, declaredAt, _):
            let module = declaredAt.prefix { $0 != "/" }
            return "No function is registered for \(key). Its key is declared at \(declaredAt), so a module of "
                + "\(module) should register it. To fix, install that module in the hive before attaching, or "
                + "register a function: try hive.register(function: key) { … }"
        case let .unavailable(key, underlying):
            return "The function for \(key) could not be built: \(underlying)"
        }
    }
}
