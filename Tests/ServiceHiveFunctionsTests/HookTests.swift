import ServiceHive
import ServiceHiveFunctions
import Testing

/// A center whose count function logs its hooks into `log`, and refuses the counts `refuses` selects.
@MainActor
func loggingCenter(log: HookLog, refuses: @escaping @MainActor (Badge, Int) -> Bool = { _, _ in false }) throws
    -> FunctionCenter
{
    let hive = ServiceHive()
    try hive.register(function: .count) { _ in
        BusinessFunction(
            shouldUpdate: { badge, count, _ in
                log.entries.append("function.shouldUpdate \(badge.name) \(count)")
                return !refuses(badge, count)
            },
            update: { badge, count, _ in
                log.entries.append("update \(badge.name) \(count)")
                badge.shown.append(count)
            })
    }
    return FunctionCenter(hive: hive)
}

@Suite("Hooks around each update", .timeLimit(.minutes(5)))
@MainActor
struct HookTests {
    @Test("the hooks run in order: function.shouldUpdate, delegate.shouldUpdate, willUpdate, update, didUpdate")
    func order() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log)
        let delegate = LoggingDelegate(log: log)
        let badge = Badge("a")
        try center.attach(badge, to: .count, delegate: delegate)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(
            log.entries == [
                "function.shouldUpdate a 1", "delegate.shouldUpdate a 1", "delegate.willUpdate a 1", "update a 1",
                "delegate.didUpdate a 1",
            ])
    }

    @Test("the function's shouldUpdate skips one control, before its delegate is asked")
    func functionSkips() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log) { badge, _ in badge.name == "skipped" }
        let skipped = Badge("skipped")
        let updated = Badge("updated")
        try center.attach(skipped, to: .count, delegate: LoggingDelegate(log: HookLog()))
        try center.attach(updated, to: .count)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(skipped.shown.isEmpty)
        #expect(updated.shown == [1])
        #expect(
            log.entries == ["function.shouldUpdate skipped 1", "function.shouldUpdate updated 1", "update updated 1"])
    }

    @Test("the delegate's shouldUpdate skips its control: no willUpdate, update or didUpdate")
    func delegateSkips() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log)
        let delegate = LoggingDelegate(log: log) { $0 == 2 }
        let badge = Badge("a")
        try center.attach(badge, to: .count, delegate: delegate)
        center.post(1, to: .count)
        center.post(2, to: .count)
        center.post(3, to: .count)
        center.deliverPending()
        #expect(badge.shown == [1, 3])
        #expect(!log.entries.contains("delegate.willUpdate a 2"))
        #expect(log.entries.contains("delegate.shouldUpdate a 2"))
        #expect(!log.entries.contains("delegate.didUpdate a 2"))
    }

    @Test("the value a control gets when attached goes through the same hooks")
    func initialValueHooks() throws {
        let log = HookLog()
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in
            BusinessFunction(currentValue: { 7 }) { badge, count, _ in
                log.entries.append("update \(badge.name) \(count)")
            }
        }
        let center = FunctionCenter(hive: hive)
        try center.attach(Badge("a"), to: .count, delegate: LoggingDelegate(log: log))
        try center.attach(Badge("b"), to: .count, delegate: LoggingDelegate(log: log) { _ in true })
        #expect(
            log.entries == [
                "delegate.shouldUpdate a 7", "delegate.willUpdate a 7", "update a 7", "delegate.didUpdate a 7",
                "delegate.shouldUpdate b 7",
            ])
    }

    @Test("the delegate is held weakly: once released, its control is updated without hooks")
    func weakDelegate() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log)
        let badge = Badge("a")
        var delegate: LoggingDelegate? = LoggingDelegate(log: log) { _ in true }
        weak let released = delegate
        try center.attach(badge, to: .count, delegate: delegate)
        delegate = nil
        #expect(released == nil)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(badge.shown == [1])
        #expect(log.entries == ["function.shouldUpdate a 1", "update a 1"])
    }

    @Test("a delegate without hooks of its own takes every value")
    func defaultHooks() throws {
        final class Quiet: FunctionDelegate {
            typealias Control = Badge
            typealias Value = Int
        }
        let center = FunctionCenter(hive: try countHive())
        let badge = Badge()
        let quiet = Quiet()
        try center.attach(badge, to: .count, delegate: quiet)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(badge.shown == [1])
    }
}
