import ServiceHive
import ServiceHiveFunctions
import Support
import Testing

@Suite("The function center", .timeLimit(.minutes(5)))
@MainActor
struct CenterTests {
    @Test("an attached control gets the function's current value at once")
    func initialValue() throws {
        let center = FunctionCenter(hive: try countHive(current: 3))
        let badge = Badge()
        try center.attach(badge, to: .count)
        #expect(badge.shown == [3])
    }

    @Test("without a current value, a control shows nothing until a post, and a later one gets the last value")
    func latestValue() throws {
        let center = FunctionCenter(hive: try countHive())
        let first = Badge()
        try center.attach(first, to: .count)
        #expect(first.shown.isEmpty)
        center.post(4, to: .count)
        center.post(5, to: .count)
        center.deliverPending()
        let late = Badge()
        try center.attach(late, to: .count)
        #expect(first.shown == [4, 5])
        #expect(late.shown == [5])
    }

    @Test("a value posted before any control joined is shown by the first control that joins")
    func postedBeforeAnyControl() throws {
        let center = FunctionCenter(hive: try countHive())
        center.post(8, to: .count)
        center.deliverPending()
        let badge = Badge()
        try center.attach(badge, to: .count)
        #expect(badge.shown == [8])
    }

    @Test("a function's current value wins over the last posted value")
    func currentValueWins() throws {
        let value = Box(1)
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in countFunction(current: { value.value }) }
        let center = FunctionCenter(hive: hive)
        try center.attach(Badge(), to: .count)
        center.post(2, to: .count)
        center.deliverPending()
        value.value = 3
        let badge = Badge()
        try center.attach(badge, to: .count)
        #expect(badge.shown == [3])
    }

    @Test("a post updates every live control of its key, and no other, in the order they were attached")
    func postUpdatesEveryControl() throws {
        let hive = try countHive()
        try hive.register(function: .other) { _ in countFunction() }
        let center = FunctionCenter(hive: hive)
        let order = HookLog()
        let hooked = BusinessFunction<Badge, Int> { badge, count, _ in
            badge.shown.append(count)
            order.entries.append(badge.name)
        }
        let badges = ["a", "b", "c"].map { Badge($0) }
        try hive.withOverrides {
            $0.register(function: .count) { _ in hooked }
        } operation: {
            for badge in badges { try center.attach(badge, to: .count) }
        }
        let outsider = Badge("outsider")
        try center.attach(outsider, to: .other)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(order.entries == ["a", "b", "c"])
        #expect(center.controls(of: .count).map(\.name) == ["a", "b", "c"])
        #expect(badges.allSatisfy { $0.shown == [1] })
        #expect(outsider.shown.isEmpty)
    }

    @Test("posting queues the value; it applies on the main actor when delivered")
    func postQueues() throws {
        let center = FunctionCenter(hive: try countHive())
        let badge = Badge()
        try center.attach(badge, to: .count)
        center.post(1, to: .count)
        center.poster.post(2, to: .count)
        #expect(badge.shown.isEmpty)
        center.deliverPending()
        #expect(badge.shown == [1, 2])
    }

    @Test("posted values are delivered by themselves, without deliverPending")
    func deliveredByItself() async throws {
        let center = FunctionCenter(hive: try countHive())
        let badge = Badge()
        try center.attach(badge, to: .count)
        let poster = center.poster
        try await within("a post from a detached task") { await Task.detached { poster.post(6, to: .count) }.value }
        try await eventually("the posted value to apply by itself") { badge.shown == [6] }
    }

    @Test("detaching stops the updates; detaching a control that is not attached does nothing")
    func detach() throws {
        let center = FunctionCenter(hive: try countHive())
        let kept = Badge("kept")
        let detached = Badge("detached")
        try center.attach(kept, to: .count)
        try center.attach(detached, to: .count)
        #expect(center.detach(detached))
        #expect(!center.detach(detached))
        #expect(!center.detach(Badge()))
        center.post(1, to: .count)
        center.deliverPending()
        #expect(kept.shown == [1])
        #expect(detached.shown.isEmpty)
        #expect(center.controls(of: .count).map(\.name) == ["kept"])
    }

    @Test("attaching twice keeps one place, takes the new delegate and userInfo, and updates once per post")
    func attachTwice() throws {
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, count, userInfo in
                badge.shown.append(count * (userInfo["factor"] as? Int ?? 1))
            }
        }
        let center = FunctionCenter(hive: hive)
        let log = HookLog()
        let delegate = LoggingDelegate(log: log)
        let first = Badge("first")
        let second = Badge("second")
        try center.attach(first, to: .count)
        try center.attach(second, to: .count)
        try center.attach(first, to: .count, delegate: delegate, userInfo: ["factor": 10])
        #expect(center.controls(of: .count).map(\.name) == ["first", "second"])
        center.post(2, to: .count)
        center.deliverPending()
        #expect(first.shown == [20])
        #expect(second.shown == [2])
        #expect(log.entries.count == 3)
        try center.attach(first, to: .count)
        #expect(first.shown == [20, 2], "attaching again shows the current value again, without the old userInfo")
    }

    @Test("attaching to another key moves the control there")
    func move() throws {
        let hive = try countHive()
        try hive.register(function: .other) { _ in countFunction(current: { 50 }) }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        try center.attach(badge, to: .count)
        try center.attach(badge, to: .other)
        #expect(badge.shown == [50])
        #expect(center.controls(of: .count).isEmpty)
        #expect(center.controls(of: .other).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)])
        center.post(1, to: .count)
        center.post(51, to: .other)
        center.deliverPending()
        #expect(badge.shown == [50, 51])
        try center.attach(badge, to: .count)
        center.post(2, to: .count)
        center.post(52, to: .other)
        center.deliverPending()
        #expect(badge.shown == [50, 51, 1, 2])
    }

    @Test("the function reads the userInfo a control was attached with")
    func userInfo() throws {
        let hive = ServiceHive()
        try hive.register(function: .style) { _ in
            BusinessFunction { panel, style, userInfo in
                panel.style = (userInfo["prefix"] as? String ?? "") + style
            }
        }
        let center = FunctionCenter(hive: hive)
        let plain = Panel()
        let prefixed = Panel()
        try center.attach(plain, to: .style)
        try center.attach(prefixed, to: .style, userInfo: ["prefix": "large-"])
        center.post("dark", to: .style)
        center.deliverPending()
        #expect(plain.style == "dark")
        #expect(prefixed.style == "large-dark")
    }

    @Test("an update may post, attach and detach; the posts apply after it, in order")
    func reentrantUpdates() throws {
        let hive = ServiceHive()
        let center = FunctionCenter(hive: hive)
        let late = Badge("late")
        let victim = Badge("victim")
        // Weakly: the center holds its hive, which holds this function.
        try hive.register(function: .count) { [weak center] _ in
            BusinessFunction { badge, count, _ in
                badge.shown.append(count)
                guard let center, badge.name == "first", count == 1 else { return }
                center.post(2, to: .count)
                center.detach(victim)
                try? center.attach(late, to: .count)
                center.deliverPending()  // returns at once: the delivery running this update applies the rest
            }
        }
        let first = Badge("first")
        try center.attach(first, to: .count)
        try center.attach(victim, to: .count)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(first.shown == [1, 2])
        #expect(victim.shown.isEmpty)
        #expect(late.shown == [1, 2], "the late control gets the current value when attached, then the next post")
    }
}

/// A value the tests change while a function reads it.
@MainActor
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
