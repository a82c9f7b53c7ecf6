import ServiceHive

/// One scenario of the thread-scaling run: the same operation done through ServiceHive and by hand (`direct`).
///
/// Each implementation is a `prepare` closure that a thread calls before the barrier: it does the thread's setup and
/// one warming operation, and returns the loop the thread runs, which does its operation the given number of times.
struct ScalingScenario: Sendable {
    let name: String
    /// How many operations the threads of a race do in all, shared equally: each of `n` threads does `operations / n`,
    /// so that a race lasts about as long on 8 threads as on 1 when the operation scales.
    let operations: Int
    let serviceHive: @Sendable () -> @Sendable (Int) -> Void
    let direct: @Sendable () -> @Sendable (Int) -> Void
}

/// Takes the value it is given and drops it, so that the optimizer can't delete an operation whose result nothing reads,
/// as package-benchmark's `blackHole` does for the other benchmarks. `@_optimize(none)` is what makes it opaque: with
/// `@inline(never)` alone, the optimizer saw an empty body and deleted the loops of `direct`, which measured 0.0 ns for
/// `resolveAll`'s list.
///
/// `consuming`, so that every operation hands it a reference of its own, as a resolve returns one: `direct` copies the
/// stored singleton, which takes a count on the instance, and this drops it. Both cores then write the instance's
/// count, the one cost that threads sharing an instance can't avoid. A borrowed `sink(Direct.singleton)` never touches
/// the count, and neither did a function returning `Direct.singleton`, which the optimizer rewrote to return it
/// borrowed (it compiled to a load without `swift_retain`). `direct` then ran 8.6 ns on 2 threads where taking the
/// count runs 60–80.
@inline(never) @_optimize(none) func sink<T>(_ x: consuming T) {}

extension ScalingScenario {
    /// The six scenarios, with the services, hives and `direct` of the single-thread benchmarks.
    ///
    /// Each operation is written out twice, once to warm and once in its loop, rather than passed to a helper as a
    /// closure: a call through a closure on every operation would add its own cost to operations of 2 to 8 ns.
    static func all() -> [ScalingScenario] {
        let hive = StandardRegistrations.hive()
        _ = try! hive.resolve(Composite.self)
        let contributions = ScaleFixtures.hive(withContributions: 10)
        return [
            ScalingScenario(
                name: "cached singleton resolve", operations: 4_000_000,
                serviceHive: {
                    sink(try! hive.resolve(Singleton.self))
                    return { count in for _ in 0..<count { sink(try! hive.resolve(Singleton.self)) } }
                },
                direct: {
                    sink(Direct.singleton)
                    return { count in for _ in 0..<count { sink(Direct.singleton) } }
                }),
            ScalingScenario(
                name: "transient with 3 singleton dependencies", operations: 800_000,
                serviceHive: {
                    sink(try! hive.resolve(Composite.self))
                    return { count in for _ in 0..<count { sink(try! hive.resolve(Composite.self)) } }
                },
                direct: {
                    sink(Direct.composite())
                    return { count in for _ in 0..<count { sink(Direct.composite()) } }
                }),
            // Each thread is one request: it makes its child hive, which provides the request's `Session`, before the
            // barrier, and resolves the parent's singleton from it. `direct` reads the same `static let`.
            ScalingScenario(
                name: "request's child hive resolving its parent's singleton", operations: 4_000_000,
                serviceHive: {
                    let session: any Session = LiveSession()
                    let request = hive.child { $0.provide(Session.self, session) }
                    sink(try! request.resolve(Singleton.self))
                    return { count in for _ in 0..<count { sink(try! request.resolve(Singleton.self)) } }
                },
                direct: {
                    sink(Direct.singleton)
                    return { count in for _ in 0..<count { sink(Direct.singleton) } }
                }),
            wholeRequest("request's child hive, made, resolved from and released") { hive },
            // What the whole request costs when the threads share no family, its lock, its state and its reference
            // counts.
            wholeRequest("request's child hive, as above, each thread with a root hive of its own") {
                StandardRegistrations.hive()
            },
            ScalingScenario(
                name: "resolveAll of 10 cached singletons", operations: 400_000,
                serviceHive: {
                    sink(try! contributions.resolveAll(Plugin.self))
                    return { count in for _ in 0..<count { sink(try! contributions.resolveAll(Plugin.self)) } }
                },
                direct: {
                    sink(Direct.plugins)
                    return { count in for _ in 0..<count { sink(Direct.plugins) } }
                }),
        ]
    }

    /// A whole request as an operation: its child hive made from the hive that `parent` gives each thread, with the
    /// request's `Session`, a handler built from it, and the child released. Making and releasing a child take the
    /// family's lock, which every child of the hive shares. `direct` makes the object that holds the request's
    /// instances by hand.
    static func wholeRequest(_ name: String, parent: @escaping @Sendable () -> ServiceHive) -> ScalingScenario {
        ScalingScenario(
            name: name, operations: 400_000,
            serviceHive: {
                let hive = parent()
                let session: any Session = LiveSession()
                sink(try! hive.child { $0.provide(Session.self, session) }.resolve(RequestHandler.self))
                return { count in
                    for _ in 0..<count {
                        sink(try! hive.child { $0.provide(Session.self, session) }.resolve(RequestHandler.self))
                    }
                }
            },
            direct: {
                let session: any Session = LiveSession()
                sink(RequestServices(session: session).handler())
                return { count in
                    for _ in 0..<count { sink(RequestServices(session: session).handler()) }
                }
            })
    }
}
