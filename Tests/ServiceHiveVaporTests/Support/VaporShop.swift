#if Vapor
import ServiceHive
import ServiceHiveVapor
import Support
import Vapor
import VaporTesting

/// Gives `app` the shop's hive, whose requests provide the `X-Caller` header's `Caller`, and the components under
/// `api`, logging to `logs`.
func configureShop(_ app: Application, hive: ServiceHive, logs: LogRecorder) throws {
    app.logger = logs.logger
    try app.useHive(hive) { request, provisions in
        provisions.provide(Caller.self, Caller(name: request.headers.first(name: Caller.headerName) ?? "anonymous"))
    }
    app.grouped("api").hiveComponents()
}

/// Runs `test` with a booted testing application of the shop, with the routes `routes` adds before the boot, and
/// shuts it down after.
func withShop<T>(
    hive: ServiceHive? = nil, logs: LogRecorder = LogRecorder(),
    routes: (Application) throws -> Void = { _ in },
    _ test: (Application) async throws -> T
) async throws -> T {
    let app = try await Application.make(.testing)
    do {
        try configureShop(app, hive: try hive ?? shopHive(), logs: logs)
        try routes(app)
        try await app.asyncBoot()
        let result = try await test(app)
        try await app.asyncShutdown()
        return result
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

/// Sends a request to `app` in memory and returns its status and body.
func send(
    _ app: Application, _ method: HTTPMethod, _ target: String, contentType: String? = nil, body: String? = nil,
    headers: HTTPHeaders = [:]
) async throws -> (status: Int, body: String, headers: HTTPHeaders) {
    var headers = headers
    if let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
    let response = try await app.testing().sendRequest(
        method, target, headers: headers, body: body.map { ByteBuffer(string: $0) })
    return (Int(response.status.code), response.body.string, response.headers)
}
#endif
