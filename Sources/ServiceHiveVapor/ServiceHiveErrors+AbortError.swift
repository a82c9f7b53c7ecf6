#if Vapor
public import ServiceHive
public import ServiceHiveComponents
public import Vapor

// The errors of the hive and of components, thrown from any route, answer as the component routes answer them: the
// status and the safe message of `ComponentHTTPFailure`, and the library's code in the `ServiceHive-Error-Code`
// header. Vapor's ErrorMiddleware sends an `AbortError`'s `reason`, never its description, in every environment: the
// developer's text, which lists what is registered, goes to the log only.

/// The header that carries the library's code of an error: a `ComponentError`'s or a `ServiceHiveError`'s.
let errorCodeHeader = "ServiceHive-Error-Code"

/// The headers of an error of the library.
private func errorHeaders(code: Int?) -> HTTPHeaders {
    guard let code else { return [:] }
    return [errorCodeHeader: "\(code)"]
}

extension ComponentError: AbortError {
    /// The status the component routes answer this error with: 404, 400, 414 or 500, or a public error's own.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: ComponentHTTPFailure(self).statusCode) }
    /// The safe message the component routes answer with.
    public var reason: String { ComponentHTTPFailure(self).message }
    /// `ServiceHive-Error-Code`, the error's `code`.
    public var headers: HTTPHeaders { errorHeaders(code: code) }
}

extension ServiceHiveError: AbortError {
    /// 500: an error of the hive is the server's.
    public var status: HTTPResponseStatus { .internalServerError }
    /// A generic message: the error's description, which names registrations, goes to the log only.
    public var reason: String { "The server failed." }
    /// `ServiceHive-Error-Code`, the error's code.
    public var headers: HTTPHeaders { errorHeaders(code: code) }
}
extension HiveVaporError: AbortError {
    /// 503 for a request that came while the modules are not running; 500 otherwise.
    public var status: HTTPResponseStatus {
        if case .modulesNotRunning = self { return .serviceUnavailable }
        return .internalServerError
    }
    /// A generic message: the description, which names modules and registrations, goes to the log only.
    public var reason: String {
        if case .modulesNotRunning = self { return "The server is not ready." }
        return "The server failed."
    }
}
#endif
