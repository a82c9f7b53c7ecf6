// The servers that Scripts/measure-adapter-throughput loads: what HiveMiddleware costs a Hummingbird server. Run the
// script, not this:
//
//     Scripts/measure-adapter-throughput
//
// Three servers listen on 127.0.0.1, on free ports that they print: `bare` is Hummingbird alone, `hive` the same
// route behind HiveMiddleware, and `resolve` a route that also resolves a singleton from the request's hive; `hive`
// also serves the component command `api/bench/echo?text=…`. SIGTERM or SIGINT stop them.
#if Hummingbird
import Foundation
import Hummingbird
import Logging
import ServiceHive
import ServiceHiveComponents
import ServiceHiveHummingbird
import ServiceLifecycle

/// What the `resolve` route resolves.
final class Greeting: Sendable {
    let text = "hello"
}

let hive = ServiceHive()
try hive.register(Greeting.self, scope: .singleton) { Greeting() }
try hive.registerComponent("bench") { component in
    component.command("echo", reachableByURL: true) { call in ["text": try call.argument("text", as: String.self)] }
}

let logger = Logger(label: "HummingbirdThroughput") { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

/// An application on a free port of 127.0.0.1 that prints `name port` once it listens.
func server<Context: RequestContext>(_ name: String, _ router: Router<Context>, logger: Logger) -> some Service
where Context.Source == ApplicationRequestContextSource {
    Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            // Unbuffered, so that the script reads it at once.
            FileHandle.standardError.write(Data("\(name) \(channel.localAddress?.port ?? 0)\n".utf8))
        }, logger: logger)
}

let bare = Router()
bare.get("hello") { _, _ in "hello" }

let hived = Router(context: BasicHiveRequestContext.self)
hived.add(middleware: HiveMiddleware(hive))
hived.get("hello") { _, _ in "hello" }
hived.get("resolve") { _, context in try context.resolve(Greeting.self).text }
hived.addComponents(at: "api")

let group = ServiceGroup(
    services: [server("bare", bare, logger: logger), server("hive", hived, logger: logger)],
    gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger)
try await group.run()
#else
print("HummingbirdThroughput needs the Hummingbird trait: Scripts/measure-adapter-throughput builds it so.")
#endif
