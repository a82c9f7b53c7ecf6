// The example server: TradeModule over HTTP, with Hummingbird.
//
//     swift run --traits Hummingbird TradeServer            # listens on 127.0.0.1:8080
//     TRADE_SERVER_PORT=9000 swift run --traits Hummingbird TradeServer
//     curl 'http://127.0.0.1:8080/api/trade/order?item=hive-42&quantity=2'
//
// SIGTERM or SIGINT stop it gracefully: the server stops accepting requests and finishes those it has, then the
// modules stop.
#if Hummingbird
import Foundation
import Logging
import ServiceHive

var logger = Logger(label: "TradeServer")
logger.logLevel = .info
let port = Int(ProcessInfo.processInfo.environment["TRADE_SERVER_PORT"] ?? "") ?? 8080
let app = TradeServer.application(hive: ServiceHive(), port: port, logger: logger)
try await app.runService()
logger.info("TradeServer stopped: the server, then the modules")
#else
print("TradeServer needs the Hummingbird trait: swift run --traits Hummingbird TradeServer")
#endif
