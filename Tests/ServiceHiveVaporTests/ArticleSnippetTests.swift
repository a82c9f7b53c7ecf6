#if Vapor
import ServiceHive
import ServiceHiveComponents
import ServiceHiveVapor
import Support
import Testing
import Vapor
import VaporTesting

/// A module of the article: registers the `Greeter` that each request builds with its caller.
struct ShopModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(Greeter.self) { r in Greeter(caller: try r.resolve()) }
    }
}

/// The article's server: compiled, and not run, since it would listen on 8080, take SIGTERM and SIGINT from the test
/// process, and end it on a failure. `configureArticleApp(_:)`, which the tests run, is the same wiring.
func runArticleServer() async throws {
    // snippet: vapor-main
    let app = try await Application.make(.detect())
    try app.useHive(ServiceHive(), modules: [ShopModule()], validation: .all)
    app.grouped("api").hiveComponents()
    await app.executeOrExit()
    // end-snippet
}

/// The article's request hive and routes.
func configureArticleApp(_ app: Application) throws {
    // snippet: vapor-request-hive
    try app.useHive(ServiceHive(), modules: [ShopModule()]) { request, provisions in
        provisions.provide(Caller.self, Caller(name: request.headers.first(name: "X-Caller") ?? "anonymous"))
    }
    app.get("greeting") { request in
        try request.hive.resolve(Greeter.self).greeting  // built with this request's Caller
    }
    // end-snippet
}

@Suite("The ServiceHiveVapor article", .timeLimit(.minutes(5)))
struct ArticleSnippetTests {
    @Test("the article's routes build a Greeter with each request's caller, once the modules installed")
    func requestHive() async throws {
        // snippet: vapor-testing
        let app = try await Application.make(.testing)
        try configureArticleApp(app)
        try await app.asyncBoot()  // installs the modules; app.testing() alone would not
        let response = try await app.testing().sendRequest(.GET, "/greeting", headers: ["X-Caller": "ada"])
        #expect(response.body.string == "hello, ada")
        try await app.asyncShutdown()
        // end-snippet
    }

    @Test("a route that calls a command by name checks its reachability first, as the article says")
    func reachability() async throws {
        let answers = try await withShop(routes: { app in
            // snippet: vapor-reachable
            app.get("run", ":command") { request -> String in
                let command = try request.parameters.require("command")
                let hive = try request.hive
                guard hive.isReachableByURL(component: "shop", command: command) else { throw Abort(.notFound) }
                return "\(try await hive.call("shop", command))"
            }
            // end-snippet
        }) { app in
            [try await send(app, .GET, "/run/audit").status, try await send(app, .GET, "/run/greet").status]
        }
        #expect(answers == [404, 200])
    }
}
#endif
