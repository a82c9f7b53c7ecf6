// The resolves that ARCHITECTURE.md maps function by function, for Scripts/map-resolves to step in gdb: each runs in a
// function of its own, after three warming runs, so that what is cached is cached and each thread has kept its
// answers. It does nothing useful on its own.
import ServiceHive

protocol Meter: AnyObject { var reading: Int { get } }
final class LiveMeter: Meter { let reading = 1 }
protocol Clock: Sendable { var now: Int { get } }
struct LiveClock: Clock { let now = 2 }
protocol Report { var text: String { get } }
struct LiveReport: Report { let text = "report" }
struct MockReport: Report { let text = "mock" }
/// A singleton built from a transient, which a test overrides.
protocol Summary { var report: any Report { get } }
final class LiveSummary: Summary {
    let report: any Report
    init(report: any Report) { self.report = report }
}

/// Keeps a value alive until here, so that the optimizer can't drop a resolve.
@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

/// A cached singleton, resolved through the general entry point: `any Meter` is not `Sendable`.
@inline(never) func resolveCachedSingleton(_ hive: ServiceHive) throws { keep(try hive.resolve((any Meter).self)) }
/// A cached singleton of a `Sendable` service, resolved through the entry point for `Sendable` services.
@inline(never) func resolveSendableSingleton(_ hive: ServiceHive) throws { keep(try hive.resolve((any Clock).self)) }
/// A transient.
@inline(never) func resolveTransient(_ hive: ServiceHive) throws { keep(try hive.resolve((any Report).self)) }
/// Inside `withOverrides` that overrides the transient a singleton was built from: the override scope's own instance.
@inline(never) func resolveInsideOverrides(_ hive: ServiceHive) throws { keep(try hive.resolve((any Summary).self)) }

let hive = ServiceHive()
try hive.register((any Meter).self, scope: .singleton) { LiveMeter() }
try hive.register((any Clock).self, scope: .singleton) { LiveClock() }
try hive.register((any Report).self) { LiveReport() }
try hive.register((any Summary).self, scope: .singleton) { LiveSummary(report: try $0.resolve()) }
_ = try hive.resolve((any Summary).self)
for _ in 0..<4 {
    try resolveCachedSingleton(hive)
    try resolveSendableSingleton(hive)
    try resolveTransient(hive)
}
try hive.withOverrides({ $0.register((any Report).self) { MockReport() } }) {
    for _ in 0..<4 { try resolveInsideOverrides(hive) }
}
