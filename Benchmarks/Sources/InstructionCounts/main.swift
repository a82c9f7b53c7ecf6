// Runs one scenario N times, for `Benchmarks/count-instructions`: `InstructionCounts SCENARIO N`. The scenarios
// mirror the benchmarks of the same number, with the same services (`Services.swift` and the floors are links to the
// benchmarks' own files), so that a count explains a wall time.

import Foundation
import ServiceHive
import ServiceHiveComponents
import ServiceHiveFunctions

@inline(never) func sink<T>(_ x: T) { withExtendedLifetime(x) {} }

func makeHive() -> ServiceHive {
    let hive = ServiceHive()
    try! hive.register(Transient.self) { LiveTransient() }
    try! hive.register(Singleton.self, scope: .singleton) { LiveSingleton() }
    try! hive.register(DependencyA.self, scope: .singleton) { LiveDependencyA() }
    try! hive.register(DependencyB.self, scope: .singleton) { LiveDependencyB() }
    try! hive.register(DependencyC.self, scope: .singleton) { LiveDependencyC() }
    try! hive.register(Composite.self) { r in LiveComposite(a: try r.resolve(), b: try r.resolve(), c: try r.resolve())
    }
    try! hive.register(Named.self, name: "special") { LiveNamed() }
    try! hive.register(LiveStore.self, scope: .singleton) { LiveStore() }
    try! hive.forward(StoreReader.self, to: LiveStore.self) { $0 }
    try! hive.register(AsyncSingleton.self, scope: .singleton) { _ async throws in LiveAsyncSingleton() }
    _ = try! hive.resolve(Singleton.self)
    _ = try! hive.resolve(Composite.self)
    _ = try! hive.resolve(StoreReader.self)
    return hive
}

struct InjectedOwner { @ServiceHive.Injected(hive: hiveForWrappers) var singleton: any Singleton }
struct LazyInjectedOwner { @ServiceHive.LazyInjected(hive: hiveForWrappers) var singleton: any Singleton }
let hiveForWrappers = makeHive()

let args = CommandLine.arguments
let what = args[1]
let n = Int(args[2])!

func components() -> ServiceHive {
    let hive = ServiceHive()
    try! hive.registerComponent("desk", scope: .singleton) { _ in
        QuoteDesk()
    } commands: { component in
        component.command("quote") { desk, call in
            ["total": desk.quote(item: try call.argument("item"), quantity: try call.argument("quantity"))]
        }
        component.command("order", reachableByURL: true) { desk, call in
            ["total": desk.quote(item: try call.argument("item"), quantity: try call.argument("quantity"))]
        }
    }
    _ = try! hive.call("desk", "quote", arguments: ["item": "hive-42", "quantity": 2])
    return hive
}

extension ServiceHive.Command where Input == DeskQuote, Output == DeskTotal {
    static var deskQuote: Self { .init(component: "desk", name: "quote") }
}

/// The override of the override scenarios: a mock of the transient.
let mockTransient: (inout ServiceHive.Overrides) -> Void = { $0.register(Transient.self) { MockTransient() } }

/// Runs `body` in a task and waits for it: the async scenarios.
func waiting(for body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

switch what {
case "31":
    // A `.weak` instance, kept alive by the caller, resolved again.
    let h = ServiceHive(); try! h.register(Singleton.self, scope: .weak) { LiveSingleton() }
    let alive = try! h.resolve(Singleton.self)
    for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
    withExtendedLifetime(alive) {}
case "01": let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(Transient.self)) }
case "02": let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "03": let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(Composite.self)) }
case "04": let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(Named.self, name: "special")) }
case "04b":
    let h = ScaleFixtures.hive(withVariantsNamed: variantNames(1_000)); let name = "variant-500"
    for _ in 0..<n { sink(try! h.resolve(Named.self, name: name)) }
case "07b":
    let h = ScaleFixtures.hive(withSingletonAmong: 10_000)
    for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "08a":
    let h = makeHive()
    h.withOverrides(mockTransient) { for _ in 0..<n { sink(try! h.resolve(Transient.self)) } }
case "08b":
    let h = makeHive(); _ = try! h.resolve(Singleton.self)
    h.withOverrides {
        $0.register(Transient.self) { MockTransient() }
    } operation: {
        for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
    }
case "08c":
    let h = makeHive()
    let mockSingleton: (inout ServiceHive.Overrides) -> Void = {
        $0.register(Singleton.self, scope: .singleton) { MockSingleton() }
    }
    h.withOverrides(mockSingleton) { for _ in 0..<n { sink(try! h.resolve(Singleton.self)) } }
case "08d":
    let h = makeHive()
    try! h.register(Dependent.self, scope: .singleton) { r in LiveDependent(transient: try r.resolve()) }
    h.withOverrides(mockTransient) { for _ in 0..<n { sink(try! h.resolve(Dependent.self)) } }
case "08f":
    let h = makeHive()
    try! h.register(Dependent.self, scope: .singleton) { r in LiveDependent(transient: try r.resolve()) }
    _ = try! h.resolve(Dependent.self)
    h.withOverrides(mockTransient) { for _ in 0..<n { sink(try! h.resolve(Dependent.self)) } }
case "08e":
    let h = makeHive(); _ = try! h.resolve(Singleton.self)
    h.withOverrides(mockTransient) {
        h.withOverrides(mockTransient) {
            h.withOverrides(mockTransient) { for _ in 0..<n { sink(try! h.resolve(Singleton.self)) } }
        }
    }
case "29a": let h = DeclaredFixtures.initializerHive(); for _ in 0..<n { sink(try! h.resolve(Transient.self)) }
case "29b": let h = DeclaredFixtures.initializerHive(); for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "29c": let h = DeclaredFixtures.initializerHive(); for _ in 0..<n { sink(try! h.resolve(Composite.self)) }
case "30a": let h = DeclaredFixtures.declaredHive(count: 1_000); for _ in 0..<n { sink(h.check()) }
case "30b": let h = DeclaredFixtures.declaredHive(count: 1_000); for _ in 0..<n { sink(h.validate()) }
case "09": var r = HiveRegistrar(hive: ServiceHive()); registerDistinctTypes(n, into: &r); sink(r)
case "25a", "25b":
    let names = variantNames(what == "25a" ? 4_000 : 16_000); let h = ScaleFixtures.hive(withVariantsNamed: names)
    for i in 0..<n {
        let name = names[i % names.count]
        sink(h.unregister(Named.self, name: name))
        try! h.register(Named.self, name: name) { LiveNamed() }
    }
case "26a", "26b":
    let h = ServiceHive(); let module = LargeModule(count: n, failsToStart: what == "26b")
    waiting { sink(try? await h.install([module])) }
case "15": let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(StoreReader.self)) }
case "16":
    let h = makeHive()
    let lazy = try! h.resolve(ServiceHive.Lazy<Singleton>.self); _ = try! lazy.instance
    for _ in 0..<n { sink(try! lazy.instance) }
    sink(h)
case "17a": let o = InjectedOwner(); for _ in 0..<n { sink(o.singleton) }
case "17b": let o = LazyInjectedOwner(); _ = o.singleton; for _ in 0..<n { sink(o.singleton) }
case "19a":
    let h = makeHive(); h.trace = { _ in }; _ = try! h.resolve(Singleton.self); h.trace = nil
    for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "19b":
    let other = makeHive(); other.trace = { _ in }; _ = try! other.resolve(Singleton.self)
    let h = makeHive(); for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "19c":
    let h = makeHive(); h.trace = { _ in }; for _ in 0..<n { sink(try! h.resolve(Singleton.self)) }
case "22":
    let h = components(); let a: [String: any Sendable] = ["item": "hive-42", "quantity": 2]
    for _ in 0..<n { sink(try! h.call("desk", "quote", arguments: a)) }
case "23":
    let h = components(); let i = DeskQuote(item: "hive-42", quantity: 2)
    for _ in 0..<n { sink(try! h.call(.deskQuote, i)) }
case "18", "24":
    let h = makeHive(); let c = components()
    let url = URL(string: "shop://desk/order?item=hive-42&quantity=2")!
    waiting {
        _ = try! await h.resolveAsync(AsyncSingleton.self)
        _ = try! await c.open(url)
        if what == "18" {
            for _ in 0..<n { sink(try! await h.resolveAsync(AsyncSingleton.self)) }
        } else {
            for _ in 0..<n { sink(try! await c.open(url)) }
        }
    }
    exit(0)
case "28":
    let h = ScaleFixtures.hive(withContributions: 10)
    for _ in 0..<n { sink(try! h.resolveAll(Plugin.self)) }
case "28-floor":
    let f = Floor(); f.register(collectionOf: Plugin.self, (0..<10).map { _ in LivePlugin() as any Plugin })
    for _ in 0..<n { sink(f.resolveAll(Plugin.self)) }
case "02-floor":
    let f = Floor(); let single = LiveSingleton(); f.register(Singleton.self) { single }
    for _ in 0..<n { sink(f.resolve(Singleton.self)) }
case "22-floor":
    let desk = QuoteDesk(); let f = ComponentFloor()
    f.register("desk", "quote") { a in
        ["total": desk.quote(item: a["item"] as! String, quantity: a["quantity"] as! Int)]
    }
    let a: [String: any Sendable] = ["item": "hive-42", "quantity": 2]
    for _ in 0..<n { sink(try! f.call("desk", "quote", arguments: a)) }
case "12":
    let h = makeHive(); try! h.register(RequestHandler.self) { r in LiveRequestHandler(session: try r.resolve()) }
    let session: any Session = LiveSession()
    for _ in 0..<n {
        let request = h.child { $0.provide(Session.self, session) }
        sink(try! request.resolve(RequestHandler.self))
    }
case "12b":
    let h = makeHive(); try! h.register(RequestHandler.self) { r in LiveRequestHandler(session: try r.resolve()) }
    let session: any Session = LiveSession()
    let info = RequestInfo(id: "4f1c", path: "/cart"), log = RequestLog(label: "request")
    for _ in 0..<n {
        let request = h.child {
            $0.provide(RequestInfo.self, info); $0.provide(RequestLog.self, log); $0.provide(Session.self, session)
        }
        sink(try! request.resolve(RequestHandler.self))
    }
case "20", "20-floor", "21", "21-floor":
    MainActor.assumeIsolated { posting(what, n) }
case "27a", "27b":
    MainActor.assumeIsolated { postingToKeys(what, n) }
default: fatalError(what)
}
