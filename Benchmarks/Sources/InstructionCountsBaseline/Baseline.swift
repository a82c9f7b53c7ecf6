import ServiceHiveBaseline

public protocol BTransient: AnyObject, Sendable {}
final class BLiveTransient: BTransient {}
public protocol BSingleton: AnyObject, Sendable {}
final class BLiveSingleton: BSingleton {}
public protocol BNamed: AnyObject, Sendable {}
final class BLiveNamed: BNamed {}
public protocol BA: AnyObject, Sendable {}
public protocol BB: AnyObject, Sendable {}
public protocol BC: AnyObject, Sendable {}
final class LA: BA {}
final class LB: BB {}
final class LC: BC {}
public protocol BComposite: AnyObject, Sendable {}
final class LComposite: BComposite {
    let a: any BA; let b: any BB; let c: any BC
    init(a: any BA, b: any BB, c: any BC) { self.a = a; self.b = b; self.c = c }
}

@inline(never) func sink<T>(_ x: T) { withExtendedLifetime(x) {} }

public func runBaseline(_ what: String, _ n: Int) {
    let hive = ServiceHive()
    try! hive.register(BTransient.self) { BLiveTransient() }
    try! hive.register(BSingleton.self, scope: .singleton) { BLiveSingleton() }
    try! hive.register(BA.self, scope: .singleton) { LA() }
    try! hive.register(BB.self, scope: .singleton) { LB() }
    try! hive.register(BC.self, scope: .singleton) { LC() }
    try! hive.register(BComposite.self) { r in LComposite(a: try r.resolve(), b: try r.resolve(), c: try r.resolve()) }
    try! hive.register(BNamed.self, name: "special") { BLiveNamed() }
    _ = try! hive.resolve(BSingleton.self)
    _ = try! hive.resolve(BComposite.self)
    switch what {
    case "01": for _ in 0..<n { sink(try! hive.resolve(BTransient.self)) }
    case "02": for _ in 0..<n { sink(try! hive.resolve(BSingleton.self)) }
    case "03": for _ in 0..<n { sink(try! hive.resolve(BComposite.self)) }
    case "04": for _ in 0..<n { sink(try! hive.resolve(BNamed.self, name: "special")) }
    default: fatalError(what)
    }
}
