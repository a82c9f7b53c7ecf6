// Measures, in one process and without the network, what HiveMiddleware adds to a Hummingbird request, as
// VaporRequestHiveCost measures `request.hive` for Vapor:
//
//     swift run -c release --traits Hummingbird HummingbirdRequestHiveCost
//     ROUNDS=40 swift run -c release --traits Hummingbird HummingbirdRequestHiveCost
//
// It builds two routers' responders, without a server, and makes requests as Hummingbird's server gets them: a request
// and its context, with a logger that carries the request's id. `plain` runs them through a router with one constant
// route; `hive` through the same route behind HiveMiddleware, which makes the request's child hive and releases it
// with the context; `resolve` also resolves a singleton of the application's hive from it; `child` makes and releases
// the same child hive beside the plain router, and keeps it nowhere. A round runs a block of `BLOCK` (2,000) requests of
// each in turn, 50 times, so that the load of a shared machine falls on all alike; it prints the median over `ROUNDS`
// (20) rounds of the nanoseconds a request of each took, and of what each added to `plain` within each round.
#if Hummingbird
import Foundation
import Hummingbird
import Logging
import RequestCostRounds
import ServiceHive
import ServiceHiveHummingbird

/// What the `resolve` variant resolves.
final class Greeting: Sendable {
    let text = "hello"
}

/// Keeps the optimizer from dropping what a variant computes.
@inline(never) func sink<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Where a request made here comes from: only its logger, as Hummingbird's server gives it.
struct Source: RequestContextSource {
    let logger: Logger
}

/// A context as `BasicHiveRequestContext`, made from a `Source`, not a channel.
struct Context: HiveRequestContext {
    typealias Source = HummingbirdRequestHiveCost.Source

    var coreContext: CoreRequestContextStorage
    var requestHive: ServiceHive?

    init(source: Source) {
        coreContext = .init(source: source)
    }
}

let hive = ServiceHive()
try hive.register(Greeting.self, scope: .singleton) { Greeting() }
_ = try hive.resolve(Greeting.self)

let logger = Logger(label: "HummingbirdRequestHiveCost") { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

let plainRouter = Router(context: Context.self)
plainRouter.get("hello") { _, _ in "hello" }
let plain = plainRouter.buildResponder()

let hiveRouter = Router(context: Context.self)
hiveRouter.add(middleware: HiveMiddleware(hive))
hiveRouter.get("hello") { _, _ in "hello" }
hiveRouter.get("resolve") { _, context in try context.resolve(Greeting.self).text }
let hived = hiveRouter.buildResponder()

/// A request to `path` and its context, as Hummingbird's server makes them: the logger carries a new request id.
func request(_ path: String) -> (Request, Context) {
    let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path)
    let request = Request(head: head, body: .init(buffer: ByteBuffer()))
    var requestLogger = logger
    requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
    return (request, Context(source: Source(logger: requestLogger)))
}

let names = ["plain", "hive", "resolve", "child"]
let variants: [String: @Sendable () async throws -> Void] = [
    "plain": {
        let (request, context) = request("/hello")
        sink(try await plain.respond(to: request, context: context))
    },
    "hive": {
        let (request, context) = request("/hello")
        sink(try await hived.respond(to: request, context: context))
    },
    "resolve": {
        let (request, context) = request("/resolve")
        sink(try await hived.respond(to: request, context: context))
    },
    "child": {
        let (request, context) = request("/hello")
        let id = context.logger[metadataKey: "hb.request.id"]?.description ?? ""
        sink(
            hive.child {
                $0.provide(
                    HiveRequestInfo.self, HiveRequestInfo(id: id, method: request.method, path: request.uri.path))
                $0.provide(Logger.self, context.logger)
            })
        sink(try await plain.respond(to: request, context: context))
    },
]

try await runRequestCostRounds(names) { name, count in
    let variant = variants[name]!
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { try await variant() }
    return DispatchTime.now().uptimeNanoseconds - start
}
#else
print(
    "HummingbirdRequestHiveCost needs the Hummingbird trait:",
    "swift run -c release --traits Hummingbird HummingbirdRequestHiveCost")
#endif
