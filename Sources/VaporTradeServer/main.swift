// The example server: TradeModule over HTTP, with Vapor.
//
//     swift run --traits Vapor VaporTradeServer                      # listens on 127.0.0.1:8080
//     swift run --traits Vapor VaporTradeServer serve --port 9000
//     curl 'http://127.0.0.1:8080/api/trade/order?item=hive-42&quantity=2'
//
// SIGTERM or SIGINT stop it gracefully: the server stops accepting requests and finishes those it has, then the
// modules stop, and it exits with status 0. When the modules fail to install, start or validate, it never listens: it
// logs why and exits with status 1.
#if Vapor
import ServiceHive
import ServiceHiveVapor
import Vapor

var environment = try Environment.detect()
try LoggingSystem.bootstrap(from: &environment)
let app = try await Application.make(environment)
do {
    try VaporTradeServer.configure(app, hive: ServiceHive())
} catch {
    app.logger.critical("VaporTradeServer is misconfigured: \(error)")
    try? await app.asyncShutdown()
    exit(1)
}
await app.executeOrExit()
#else
print("VaporTradeServer needs the Vapor trait: swift run --traits Vapor VaporTradeServer")
#endif
