import ServiceHive
import Testing

@testable import ServiceHiveFunctions

extension Badge: BusinessControl {}

extension FunctionKey where Control == Badge, Value == String {
    /// A key of the badge's type with another value type.
    static var caption: Self { Self("test.caption") }
}

/// A control class that others subclass.
@MainActor
class Tile: BusinessControl {
    var shown: [Int] = []
}

/// A subclass, which joins keys of `Tile` as a `Tile`.
@MainActor
final class BigTile: Tile {}

extension FunctionKey where Control == Tile, Value == Int {
    static var tile: Self { Self("test.tile") }
}

/// A hive with the count function, and a caption function that shows a caption's length as the count.
func countAndCaptionHive(current: Int? = nil) throws -> ServiceHive {
    let hive = try countHive(current: current)
    try hive.register(function: .caption) { _ in
        BusinessFunction { badge, caption, _ in badge.shown.append(caption.count) }
    }
    return hive
}

@Suite("Controls that join their business function", .timeLimit(.minutes(5)))
@MainActor
struct BusinessControlTests {
    @Test("a control joins its key in one line, shows the current value at once, follows posts, and leaves")
    func joinAndLeave() throws {
        let center = FunctionCenter(hive: try countHive(current: 4))
        let badge = Badge()
        try badge.join(.count, in: center)
        #expect(badge.shown == [4], "the current value, at once")
        #expect(center.controls(of: .count).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)])
        center.post(5, to: .count)
        center.deliverPending()
        #expect(badge.shown == [4, 5])

        #expect(badge.leave())
        center.post(6, to: .count)
        center.deliverPending()
        #expect(badge.shown == [4, 5], "no update after leaving")
        #expect(center.controls(of: .count).isEmpty)
        #expect(!badge.leave(), "a control that joined nothing has nothing to leave")
    }

    @Test("joining takes a delegate and userInfo, and the hooks run for the value it gets at once")
    func delegateAndUserInfo() throws {
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in
            BusinessFunction(currentValue: { 1 }) { badge, count, info in
                badge.shown.append(count * ((info["times"] as? Int) ?? 1))
            }
        }
        let center = FunctionCenter(hive: hive)
        let log = HookLog()
        let delegate = LoggingDelegate(log: log, refuses: { $0 == 2 })
        let badge = Badge("a")
        try badge.join(.count, in: center, delegate: delegate, userInfo: ["times": 10])
        center.post(2, to: .count)
        center.post(3, to: .count)
        center.deliverPending()
        #expect(badge.shown == [10, 30], "2 is refused by the delegate")
        #expect(
            log.entries.filter { $0.hasPrefix("delegate.didUpdate") } == [
                "delegate.didUpdate a 1", "delegate.didUpdate a 3",
            ])
    }

    @Test("joining a second key of another type moves the control there, as attaching does")
    func joinAnotherKey() throws {
        let center = FunctionCenter(hive: try countAndCaptionHive())
        let badge = Badge()
        try badge.join(.count, in: center)
        try badge.join(.caption, in: center)
        #expect(center.controls(of: .count).isEmpty)
        #expect(center.controls(of: .caption).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)])
        center.post(7, to: .count)
        center.post("four", to: .caption)
        center.deliverPending()
        #expect(badge.shown == [4], "only the caption's length: the count's post no longer reaches it")
    }

    @Test("a refused join throws the function's error and leaves the control where it was")
    func refusedJoin() throws {
        let center = FunctionCenter(hive: try countHive())
        let badge = Badge()
        try badge.join(.count, in: center)
        #expect(throws: FunctionError.self) { try badge.join(.caption, in: center) }
        #expect(
            center.controls(of: .count).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)],
            "still on its first key")
        center.post(1, to: .count)
        center.deliverPending()
        #expect(badge.shown == [1])
    }

    @Test("a joined control is held weakly: released, it is never updated again and is swept")
    func weakRelease() throws {
        let touched = HookLog()
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, _, _ in touched.entries.append(badge.name) }
        }
        let center = FunctionCenter(hive: hive)
        var badge: Badge? = Badge("released")
        weak let released = badge
        try badge!.join(.count, in: center)
        badge = nil
        #expect(released == nil)
        center.postImmediately(1, to: .count)
        #expect(touched.entries.isEmpty)
        #expect(center.state(of: .count).members.isEmpty, "swept by the post")
    }

    @Test("leave leaves every center the control joined in")
    func leaveEveryCenter() throws {
        let first = FunctionCenter(hive: try countHive())
        let second = FunctionCenter(hive: try countHive())
        let badge = Badge()
        try badge.join(.count, in: first)
        try badge.join(.count, in: second)
        #expect(badge.leave())
        #expect(first.controls(of: .count).isEmpty && second.controls(of: .count).isEmpty)
    }

    @Test("a subclass joins its superclass's key as the superclass")
    func subclass() throws {
        let hive = ServiceHive()
        try hive.register(function: .tile) { _ in
            BusinessFunction(currentValue: { 2 }) { tile, value, _ in tile.shown.append(value) }
        }
        let center = FunctionCenter(hive: hive)
        let big = BigTile()
        try (big as Tile).join(.tile, in: center)
        #expect(big.shown == [2])
        #expect(big.leave())
    }

    @Test("join and postImmediately default to FunctionCenter.shared, the center of ServiceHive.shared")
    func shared() throws {
        #expect(FunctionCenter.shared.hive === ServiceHive.shared)
        let key = FunctionKey<Badge, Int>("test.shared-badge")
        let badge = Badge()
        try ServiceHive.shared.withOverrides {
            $0.register(function: key) { _ in countFunction(current: { 5 }) }
        } operation: {
            try badge.join(key)
        }
        #expect(badge.shown == [5])
        #expect(FunctionCenter.shared.controls(of: key).map(ObjectIdentifier.init) == [ObjectIdentifier(badge)])
        FunctionCenter.shared.postImmediately(6, to: key)
        #expect(badge.shown == [5, 6], "applied before postImmediately returned")
        #expect(badge.leave())
        #expect(FunctionCenter.shared.controls(of: key).isEmpty)
        FunctionCenter.shared.postImmediately(7, to: key)
        #expect(badge.shown == [5, 6])
    }
}
