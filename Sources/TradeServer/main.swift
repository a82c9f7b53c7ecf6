// The example server: TradeModule over HTTP, with Hummingbird.
//
//     swift run --traits Hummingbird TradeServer            # listens on 127.0.0.1:8080
//     TRADE_SERVER_PORT=9000 swift run --traits Hummingbird TradeServer
//     curl 'http://127.0.0.1:8080/api/trade/order?item=hive-42&quantity=2'
//
// SIGTERM or SIGINT stop it gracefully: the server stops accepting requests and finishes those it has, then the
// modules stop, and it exits with status 0. When the modules fail to install, start or validate, it never listens: it
// logs why and exits with status 1. TRADE_SERVER_FAULT=install, validation or start makes that happen, for the tests.
#if Hummingbird
import Foundation
import Logging
import ServiceHive
import ServiceHiveHummingbird

var logger = Logger(label: "TradeServer")
logger.logLevel = .info
let environment = ProcessInfo.processInfo.environment
let port = Int(environment["TRADE_SERVER_PORT"] ?? "") ?? 8080
let fault: StartupFault?
do {
    fault = try StartupFault.named(environment[StartupFault.variable])
} catch {
    logger.critical("\(error)")
    exit(64)  // EX_USAGE
}
let app = TradeServer.application(hive: ServiceHive(), port: port, logger: logger, fault: fault)
await app.runServiceOrExit()
logger.info("TradeServer stopped: the server, then the modules")
#else
print("TradeServer needs the Hummingbird trait: swift run --traits Hummingbird TradeServer")
#endif
