// The server that Scripts/measure-adapter-throughput loads to measure what ServiceHiveVapor costs a Vapor server. Run
// the script, not this:
//
//     Scripts/measure-adapter-throughput
//
// One Vapor application listens on a free port of 127.0.0.1, which it prints as `vapor PORT`, with the routes: `plain`,
// a constant; `hive`, the same constant after making the request's hive; `resolve`, a singleton resolved from the
// request's hive; and `api/bench/echo?text=…`, a component command through `hiveComponents()`. And the parts of
// `request.hive`, each alone, with a plain route of as many path components to compare them with (`parts/plain`: Vapor
// spends more on a longer path): `parts/storage`, a value kept in the request's `storage`; `parts/child`, a child hive
// with no instances, made and released; `parts/child-info`, the child `request.hive` makes, with the request's info and
// logger, kept nowhere. And a way around the request's storage: `bound/plain`, a constant behind a middleware that binds
// an empty cell in a task-local for the rest of the request; `bound/hive`, the child `request.hive` makes, made on first
// use and kept in that cell. SIGTERM or SIGINT stop it.
#if Vapor
import Foundation
import ServiceHive
import ServiceHiveComponents
import ServiceHiveVapor
import Synchronization
import Vapor

/// What the `resolve` route resolves.
final class Greeting: Sendable {
    let text = "hello"
}

let hive = ServiceHive()
try hive.register(Greeting.self, scope: .singleton) { Greeting() }
try hive.registerComponent("bench") { component in
    component.command("echo", reachableByURL: true) { call in ["text": try call.argument("text", as: String.self)] }
}

var environment = Environment.production
environment.arguments = ["vapor", "serve", "--hostname", "127.0.0.1", "--port", "0"]
let app = try await Application.make(environment)
app.logger.logLevel = .warning
try app.useHive(hive)
app.get("plain") { _ in "hello" }
app.get("hive") { request in
    _ = try request.hive
    return "hello"
}
app.get("resolve") { request in try request.hive.resolve(Greeting.self).text }
app.get("parts", "storage") { request in
    request.storage[PartsKey.self] = 1
    return "hello"
}
app.get("parts", "child") { _ in
    withExtendedLifetime(hive.child()) { "hello" }
}
app.get("parts", "child-info") { request in
    withExtendedLifetime(requestChild(of: request)) { "hello" }
}
app.get("parts", "plain") { _ in "hello" }
let bound = app.grouped("bound").grouped(BindCell())
bound.get("plain") { _ in "hello" }
bound.get("hive") { request in
    // Bound by `BindCell`, which every route of the group is behind.
    guard let cell = RequestCell.current else { throw Abort(.internalServerError) }
    _ = cell.hive.withLock { kept in
        if let kept { return kept }
        let child = requestChild(of: request)
        kept = child
        return child
    }
    return "hello"
}
app.grouped("api").hiveComponents()
app.lifecycle.use(PrintPort())
await app.executeOrExit()

/// The child hive that `request.hive` makes, with the same two instances, made from `hive` directly.
func requestChild(of request: Request) -> ServiceHive {
    hive.child {
        $0.provide(VaporRequestInfo.self, VaporRequestInfo(request))
        $0.provide(Logger.self, request.logger)
    }
}

/// Where the `bound` routes keep a request's hive instead of the request's storage: bound by `BindCell` for the rest of
/// the request.
final class RequestCell: Sendable {
    @TaskLocal static var current: RequestCell?
    let hive = Mutex<ServiceHive?>(nil)
}

/// Binds a new `RequestCell` for the rest of each request.
struct BindCell: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        RequestCell.$current.withValue(RequestCell()) { next.respond(to: request) }
    }
}

/// What `parts/storage` keeps in the request's storage.
struct PartsKey: StorageKey {
    typealias Value = Int
}

/// Prints the port the server listens on, once it does.
struct PrintPort: LifecycleHandler {
    func didBootAsync(_ application: Application) async throws {
        Task {
            for _ in 0..<200 {
                if let port = application.http.server.shared.localAddress?.port {
                    FileHandle.standardError.write(Data("vapor \(port)\n".utf8))
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
#else
print("VaporThroughput needs the Vapor trait: Scripts/measure-adapter-throughput builds it so.")
#endif
