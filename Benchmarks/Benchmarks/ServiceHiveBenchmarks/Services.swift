// The services every scenario resolves, the same for every implementation. They are `Sendable`, as shared services
// should be, because swift-dependencies requires it of a dependency's value; a protocol being `Sendable` costs nothing
// at run time.

protocol Transient: AnyObject, Sendable {}
final class LiveTransient: Transient {}

protocol Singleton: AnyObject, Sendable {}
final class LiveSingleton: Singleton {}

protocol DependencyA: AnyObject, Sendable {}
protocol DependencyB: AnyObject, Sendable {}
protocol DependencyC: AnyObject, Sendable {}
final class LiveDependencyA: DependencyA {}
final class LiveDependencyB: DependencyB {}
final class LiveDependencyC: DependencyC {}

/// A transient with three singleton dependencies.
protocol Composite: AnyObject, Sendable {}
final class LiveComposite: Composite {
    let a: any DependencyA
    let b: any DependencyB
    let c: any DependencyC
    init(a: any DependencyA, b: any DependencyB, c: any DependencyC) {
        self.a = a
        self.b = b
        self.c = c
    }
}

protocol Named: AnyObject, Sendable {}
final class LiveNamed: Named {}

/// Built from runtime arguments.
protocol Greeting: AnyObject, Sendable {}
final class LiveGreeting: Greeting {
    let count: Int
    let name: String
    init(count: Int, name: String = "") {
        self.count = count
        self.name = name
    }
}

/// A graph: a root with two branches that share one graph-scoped leaf.
protocol Leaf: AnyObject, Sendable {}
protocol Branch: AnyObject, Sendable {}
protocol Root: AnyObject, Sendable {}
final class LiveLeaf: Leaf {}
final class LiveBranch: Branch {
    let leaf: any Leaf
    init(leaf: any Leaf) { self.leaf = leaf }
}
final class LiveRoot: Root {
    let left: any Branch
    let right: any Branch
    init(left: any Branch, right: any Branch) {
        self.left = left
        self.right = right
    }
}

/// A mock, for the override scenarios.
final class MockTransient: Transient {}

/// A mock of the singleton, which an override registers as a `.singleton` of its own.
final class MockSingleton: Singleton {}

/// A singleton built from the transient: inside an override of `Transient`, the override builds and keeps its own.
protocol Dependent: AnyObject, Sendable {}
final class LiveDependent: Dependent {
    let transient: any Transient
    init(transient: any Transient) { self.transient = transient }
}

/// The names of `count` named variants of one service: "variant-0", "variant-1"…
func variantNames(_ count: Int) -> [String] {
    (0..<count).map { "variant-\($0)" }
}

/// A request's own state, which a child hive provides.
protocol Session: AnyObject, Sendable {}
final class LiveSession: Session {}

/// A transient of the application that a request builds with its own `Session`.
protocol RequestHandler: AnyObject, Sendable {}
final class LiveRequestHandler: RequestHandler {
    let session: any Session
    init(session: any Session) { self.session = session }
}

/// What a server's request hive provides beside the caller's session: the request's own values, copied.
struct RequestInfo: Sendable {
    let id: String
    let path: String
}

/// The request's logger, as a server's request hive provides it.
struct RequestLog: Sendable {
    let label: String
}

/// Distinct types to key thousands of registrations: `Left<Right<Left<Base>>>` and so on.
struct Base { init() {} }
struct Left<Inner> { init() {} }
struct Right<Inner> { init() {} }

/// A registration target that any implementation can register any number of distinct types into.
protocol TypeRegistrar {
    mutating func register<T>(_ type: T.Type, make: @escaping () -> T)
}

/// Registers `count` distinct types, breadth first from `Base`: `Left<Base>`, `Right<Base>`, `Left<Left<Base>>`…
func registerDistinctTypes(_ count: Int, into registrar: inout some TypeRegistrar) {
    var remaining = count
    func visit<T>(_ type: T.Type, depth: Int, make: @escaping () -> T) {
        guard remaining > 0 else { return }
        if depth == 0 {
            registrar.register(T.self, make: make)
            remaining -= 1
            return
        }
        visit(Left<T>.self, depth: depth - 1) { Left<T>() }
        visit(Right<T>.self, depth: depth - 1) { Right<T>() }
    }
    var depth = 1
    while remaining > 0 {
        visit(Base.self, depth: depth) { Base() }
        depth += 1
    }
}

// MARK: - Issue 14's services

/// A second protocol of a singleton, which the hive forwards to it.
protocol StoreReader: AnyObject, Sendable {}
/// A singleton registered under its own class, and resolved as `StoreReader` through a forward.
final class LiveStore: StoreReader {}

/// A singleton whose factory is `async`, as one that opens a connection pool would be.
protocol AsyncSingleton: AnyObject, Sendable {}
final class LiveAsyncSingleton: AsyncSingleton {}

// MARK: - Issue 12's component

/// The object behind the `desk` component: its commands call it, and so do the floor's handlers and `direct`.
final class QuoteDesk: Sendable {
    /// The price in cents of `quantity` of `item`.
    func quote(item: String, quantity: Int) -> Int {
        item.utf8.count * 125 * quantity
    }
}

/// The input of the typed call: its properties are the arguments.
struct DeskQuote: Codable, Sendable {
    var item: String
    var quantity: Int
}

/// The output of the typed call: the reply's `total`.
struct DeskTotal: Codable, Sendable {
    var total: Int
}

/// One of many implementations that modules contribute to a collection (scenario 28).
protocol Plugin: AnyObject, Sendable {}
final class LivePlugin: Plugin {}
