#if Hummingbird
import Hummingbird
import ServiceHive
import TradeModule

/// `GET /health`: every health check that the installed modules contributed, run in the order the modules installed.
enum Health {
    /// The answer of `GET /health` from `hive`: `200 ok` when every check passes; otherwise
    /// `503 unhealthy: trade: no premium price for smoker; …`, naming each check that failed and why.
    ///
    /// - Throws: A `ServiceHiveError` when a check cannot be resolved, which the server answers with a 500.
    static func response(from hive: ServiceHive) async throws -> Response {
        var failing: [String] = []
        for check in try hive.resolveAll(HealthCheck.self) {
            if case .unhealthy(let reason) = await check.check() { failing.append("\(check.name): \(reason)") }
        }
        guard failing.isEmpty else {
            return text(.serviceUnavailable, "unhealthy: " + failing.joined(separator: "; "))
        }
        return text(.ok, "ok")
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
