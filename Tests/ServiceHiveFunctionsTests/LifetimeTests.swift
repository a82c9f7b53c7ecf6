import ServiceHive
import Testing

@testable import ServiceHiveFunctions

@Suite("Lifetimes", .timeLimit(.minutes(5)))
@MainActor
struct LifetimeTests {
    @Test("the center never keeps a control alive")
    func weakControls() throws {
        let center = FunctionCenter(hive: try countHive(current: 1))
        var badge: Badge? = Badge()
        weak let released = badge
        try center.attach(badge!, to: .count)
        center.post(2, to: .count)
        center.deliverPending()
        badge = nil
        #expect(released == nil)
    }

    @Test("a released control is never touched again, and is swept at the next post to its key")
    func releasedControlsDropOut() throws {
        let touched = HookLog()
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, count, _ in touched.entries.append("\(badge.name) \(count)") }
        }
        let center = FunctionCenter(hive: hive)
        let kept = Badge("kept")
        var released: Badge? = Badge("released")
        try center.attach(kept, to: .count)
        try center.attach(released!, to: .count)
        released = nil
        #expect(center.controls(of: .count).map(\.name) == ["kept"])
        #expect(center.state(of: .count).members.count == 2, "not swept before a post")
        center.post(1, to: .count)
        center.deliverPending()
        #expect(center.state(of: .count).members.count == 1, "swept by the post")
        center.post(2, to: .count)
        center.deliverPending()
        #expect(touched.entries == ["kept 1", "kept 2"])
    }

    @Test("a control released by an update earlier in the same post is not touched")
    func releasedDuringAPost() throws {
        let hive = ServiceHive()
        let holder = Box<Badge?>(nil)
        let touched = HookLog()
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, count, _ in
                touched.entries.append(badge.name)
                if badge.name == "releaser" { holder.value = nil }
            }
        }
        let center = FunctionCenter(hive: hive)
        let releaser = Badge("releaser")
        holder.value = Badge("victim")
        try center.attach(releaser, to: .count)
        try center.attach(holder.value!, to: .count)
        center.post(1, to: .count)
        center.deliverPending()
        #expect(touched.entries == ["releaser"])
        #expect(center.state(of: .count).members.count == 1)
    }

    @Test("attaching and detaching without posting keeps the key's list bounded")
    func boundedWithoutPosts() throws {
        let center = FunctionCenter(hive: try countHive())
        let kept = Badge("kept")
        try center.attach(kept, to: .count)
        for _ in 0..<10_000 {
            let badge = Badge()
            try center.attach(badge, to: .count)
            if Bool.random() { center.detach(badge) }
        }
        #expect(center.state(of: .count).members.count <= 2 * KeyState<Badge, Int>.minimumSweepThreshold)
        #expect(center.controls(of: .count).map(\.name) == ["kept"])
    }

    @Test("a new control at the address of a released one, not yet swept, attaches as a new control")
    func staleMembership() throws {
        let center = FunctionCenter(hive: try countHive(current: 1))
        // Release many controls without a post, then attach new ones: the allocator reuses their addresses, so
        // some new controls meet the stale entries of released ones.
        for round in 0..<50 {
            var badges: [Badge] = (0..<32).map { Badge("old \(round) \($0)") }
            for badge in badges { try center.attach(badge, to: .count) }
            badges = []
            let fresh = (0..<32).map { Badge("new \(round) \($0)") }
            for badge in fresh { try center.attach(badge, to: .count) }
            #expect(fresh.allSatisfy { $0.shown == [1] })
            #expect(center.controls(of: .count).count == 32)
            for badge in fresh { #expect(center.detach(badge)) }
        }
    }

    @Test("a released center keeps nothing alive, and posting to it does nothing")
    func releasedCenter() throws {
        var center: FunctionCenter? = FunctionCenter(hive: try countHive())
        weak let releasedCenter = center
        let badge = Badge()
        try center!.attach(badge, to: .count)
        let poster = center!.poster
        poster.post(1, to: .count)
        center = nil
        #expect(releasedCenter == nil)
        poster.post(2, to: .count)
        #expect(badge.shown.isEmpty)
    }
}
