import ServiceHive

/// An error that a command throws and that its callers outside the process may see, with a status and a message of
/// the command's author's choosing.
///
/// A caller over HTTP, through ServiceHiveHummingbird's mount, never sees what a command threw: it gets status 500
/// and a generic message, and the error goes to the server's log. An error type that conforms to this protocol is
/// the exception: the caller gets its ``httpStatus`` and its ``publicMessage``.
///
/// ```swift
/// enum OrderRefusal: PublicCommandError {
///     case soldOut(String)
///
///     var httpStatus: Int { 409 }
///     var publicMessage: String {
///         switch self {
///         case .soldOut(let item): "\(item) is sold out."
///         }
///     }
/// }
/// ```
///
/// Write the message for whoever calls: it names nothing they should not know.
public protocol PublicCommandError: Error {
    /// The HTTP status of the response: 400 to 499 for a request the caller should change, 500 to 599 for a failure
    /// of the server. With a status outside 400 to 599, the error is not published: the caller gets 500 and the
    /// generic message.
    var httpStatus: Int { get }

    /// The message the caller sees.
    var publicMessage: String { get }
}
