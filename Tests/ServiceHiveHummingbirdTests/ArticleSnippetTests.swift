#if Hummingbird
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceHive
import ServiceHiveComponents
import ServiceHiveHummingbird
import Support
import Testing

// snippet: hummingbird-context
struct AppRequestContext: HiveRequestContext {
    var coreContext: CoreRequestContextStorage
    var requestHive: ServiceHive?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
// end-snippet

// snippet: hummingbird-public-error
struct SoldOut: PublicCommandError {
    let item: String
    var httpStatus: Int { 409 }
    var publicMessage: String { "\(item) is sold out." }
}
// end-snippet

@Suite("The ServiceHiveHummingbird articles", .timeLimit(.minutes(5)))
struct ArticleSnippetTests {
    @Test("the middleware of the article builds a Greeter with each request's caller")
    func middleware() async throws {
        let hive = ServiceHive()
        // snippet: hummingbird-registrations
        try hive.register(Greeter.self) { r in Greeter(caller: try r.resolve()) }
        // end-snippet
        // snippet: hummingbird-middleware
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(
            middleware: HiveMiddleware(hive) { request, context, provisions in
                provisions.provide(Caller.self, Caller(name: request.headers[Caller.header] ?? "anonymous"))
            })
        router.get("greeting") { request, context in
            try context.resolve(Greeter.self).greeting  // built with this request's Caller
        }
        // end-snippet
        let app = Application(router: router, logger: LogRecorder().logger)
        try await app.test(.router) { client in
            let named = try await client.execute(uri: "/greeting", method: .get, headers: [Caller.header: "ada"])
            #expect(text(of: named) == "hello, ada")
            let anonymous = try await client.execute(uri: "/greeting", method: .get)
            #expect(text(of: anonymous) == "hello, anonymous")
        }
    }

    @Test("a route reaches the request's hive through its context: to resolve, and the hive itself")
    func routeHive() async throws {
        let appHive = ServiceHive()
        try appHive.register(Greeter.self) { r in Greeter(caller: try r.resolve()) }
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(
            middleware: HiveMiddleware(appHive) { request, _, provisions in
                provisions.provide(Caller.self, Caller(name: request.headers[Caller.header] ?? "anonymous"))
            })
        // snippet: hummingbird-route-hive
        router.get("whoami") { request, context in
            let caller = try context.resolve(Caller.self)  // what the middleware provided
            let greeter = try await context.resolveAsync(Greeter.self)  // a service, built for this request
            let hive = try context.hive  // the request's hive itself, to hand to code that takes a hive
            return "\(caller.name): \(greeter.greeting); a child of the app's hive: \(hive.parent === appHive)"
        }
        // end-snippet
        let app = Application(router: router, logger: LogRecorder().logger)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/whoami", method: .get, headers: [Caller.header: "ada"])
            #expect(text(of: response) == "ada: hello, ada; a child of the app's hive: true")
        }
    }

    @Test("the article's log level logs a client error at notice")
    func logLevel() async throws {
        let hive = try shopHive()
        let logs = LogRecorder()
        let router = Router(context: BasicHiveRequestContext.self)
        router.add(middleware: HiveMiddleware(hive))
        // snippet: hummingbird-log-level
        router.addComponents(at: "api", clientErrorLogLevel: .notice)
        // end-snippet
        let app = Application(router: router, logger: logs.logger)
        try await app.test(.router) { client in
            let soldOut = try await client.execute(uri: "/api/shop/order?item=smoker&quantity=1", method: .get)
            #expect(soldOut.status == .conflict)
        }
        #expect(logs.all.map(\.level) == [.notice])
    }

    @Test(
        "the mount of the article serves a component in a context of one's own, and a public error answers with its status"
    )
    func mount() async throws {
        let hive = ServiceHive()
        try hive.registerComponent("trade") { component in
            component.command("order", reachableByURL: true) { call in
                let item = try call.argument("item", as: String.self)
                guard item != "smoker" else { throw SoldOut(item: item) }
                return ["item": item, "quantity": try call.argument("quantity", as: Int.self)]
            }
        }
        // A context of one's own works as the basic one does.
        let router = Router(context: AppRequestContext.self)
        // snippet: hummingbird-mount
        router.add(middleware: HiveMiddleware(hive))
        router.addComponents(at: "api")
        // end-snippet
        let app = Application(router: router, logger: LogRecorder().logger)
        try await app.test(.router) { client in
            let order = try await client.execute(uri: "/api/trade/order?item=hive-42&quantity=2", method: .get)
            #expect(text(of: order) == #"{"item":"hive-42","quantity":2}"#)
            let soldOut = try await client.execute(uri: "/api/trade/order?item=smoker&quantity=1", method: .get)
            #expect(soldOut.status == .conflict)
            #expect(text(of: soldOut) == #"{"error":{"message":"smoker is sold out."}}"#)
        }
    }
}
#endif
