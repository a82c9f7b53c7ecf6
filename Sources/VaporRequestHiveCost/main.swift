// Measures, in one process and without the network, what `request.hive` adds to a Vapor request:
//
//     swift run -c release --traits Vapor VaporRequestHiveCost
//     ROUNDS=40 swift run -c release --traits Vapor VaporRequestHiveCost
//
// It boots one Vapor application with a hive, without a server, then makes requests as a route gets them: `plain`
// makes the request and reads its path, as a plain route would; `hive` does the same and reads `request.hive`; `again`
// reads it twice, the second time finding the hive the first made; `resolve` resolves a singleton of the application's
// hive from it. Three more split what `hive` adds: `child` makes and releases the child hive that `request.hive` makes,
// with the same two instances, and keeps it nowhere; `bare` makes and releases a child hive without instances;
// `storage` reads and keeps a hive in the request's storage, as `request.hive` does, without making one. Each request
// is released before the next, which releases its hive. A round runs a block of `BLOCK` (2,000) requests of each in
// turn, 50 times, so that the load of a shared machine falls on all alike; it prints the median over `ROUNDS` (20)
// rounds of the nanoseconds a request of each took, and of what each added to `plain` within each round.
//
// `--only VARIANT N` runs one variant N times and nothing else, for a profiler.
#if Vapor
import Foundation
import RequestCostRounds
import ServiceHive
import ServiceHiveVapor
import Vapor

/// What the `resolve` variant resolves.
final class Greeting: Sendable {
    let text = "hello"
}

/// Keeps the optimizer from dropping what a variant computes.
@inline(never) func sink<T>(_ value: T) { withExtendedLifetime(value) {} }

let hive = ServiceHive()
try hive.register(Greeting.self, scope: .singleton) { Greeting() }
_ = try hive.resolve(Greeting.self)

var environment = Environment.production
environment.arguments = ["vapor"]
let app = try await Application.make(environment)
app.logger.logLevel = .warning
try app.useHive(hive)
try await app.asyncBoot()
let loop = app.eventLoopGroup.next()

/// A request as a route gets it, with its path read, as a plain route reads it.
func request() -> Request {
    let request = Request(application: app, method: .GET, url: URI(path: "/hive?page=2"), on: loop)
    sink(request.url.path)
    return request
}

let names = ["plain", "hive", "again", "resolve", "child", "bare", "storage"]
let variants: [String: () throws -> Void] = [
    "plain": { sink(request()) },
    "hive": { sink(try request().hive) },
    "again": {
        let r = request()
        sink(try r.hive); sink(try r.hive)
    },
    "resolve": { sink(try request().hive.resolve(Greeting.self).text) },
    "child": {
        let r = request()
        sink(
            hive.child {
                $0.provide(VaporRequestInfo.self, VaporRequestInfo(r)); $0.provide(Logger.self, r.logger)
            })
    },
    "bare": {
        _ = request()
        sink(hive.child())
    },
    "storage": {
        let r = request()
        sink(r.storage.contains(KeptHive.self))
        var kept = r.storage
        kept[KeptHive.self] = hive
        r.storage = kept
    },
]

/// Where the `storage` variant keeps a hive in the request's storage, as `request.hive` keeps its own.
struct KeptHive: StorageKey { typealias Value = ServiceHive }

/// The nanoseconds `count` requests of `variant` took.
func time(_ variant: () throws -> Void, _ count: Int) throws -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { try variant() }
    return DispatchTime.now().uptimeNanoseconds - start
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--only", let variant = variants[arguments[2]], let n = Int(arguments[3]) {
    _ = try time(variant, n)
} else {
    try await runRequestCostRounds(names) { name, count in try time(variants[name]!, count) }
}
try await app.asyncShutdown()
#else
print("VaporRequestHiveCost needs the Vapor trait: swift run -c release --traits Vapor VaporRequestHiveCost")
#endif
