import ServiceHive
import Support
import Testing

@testable import ServiceHiveFunctions

@Suite("Posting immediately", .timeLimit(.minutes(5)))
@MainActor
struct PostImmediatelyTests {
    @Test("every attached control is updated, through all the hooks, before postImmediately returns")
    func hooksBeforeReturn() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log)
        let a = Badge("a")
        let b = Badge("b")
        try center.attach(a, to: .count, delegate: LoggingDelegate(log: log))
        let delegate = LoggingDelegate(log: log)
        try center.attach(b, to: .count, delegate: delegate)
        center.postImmediately(1, to: .count)
        #expect(a.shown == [1] && b.shown == [1])
        #expect(
            log.entries == [
                "function.shouldUpdate a 1", "update a 1",
                "function.shouldUpdate b 1", "delegate.shouldUpdate b 1", "delegate.willUpdate b 1", "update b 1",
                "delegate.didUpdate b 1",
            ], "a's delegate was released, so a is updated without one")
    }

    @Test("a refusing hook skips that control only, for an immediate value too")
    func refusal() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log) { badge, _ in badge.name == "skipped" }
        let skipped = Badge("skipped")
        let refusing = Badge("refusing")
        let updated = Badge("updated")
        let delegate = LoggingDelegate(log: HookLog(), refuses: { $0 == 1 })
        try center.attach(skipped, to: .count)
        try center.attach(refusing, to: .count, delegate: delegate)
        try center.attach(updated, to: .count)
        center.postImmediately(1, to: .count)
        #expect(skipped.shown.isEmpty && refusing.shown.isEmpty)
        #expect(updated.shown == [1])
    }

    @Test("pending posts to every key are applied first, in order, so the immediate value is the last one")
    func pendingFirst() throws {
        let hive = try countHive()
        try hive.register(function: .other) { _ in countFunction() }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        let other = Badge()
        try center.attach(badge, to: .count)
        try center.attach(other, to: .other)
        center.post(1, to: .count)
        center.post(10, to: .other)
        center.post(2, to: .count)
        center.postImmediately(3, to: .count)
        #expect(badge.shown == [1, 2, 3])
        #expect(other.shown == [10])
        center.deliverPending()
        #expect(badge.shown == [1, 2, 3], "nothing was left queued to apply after it")
        #expect(center.state(of: .count).latest == 3)
    }

    @Test("values the updates post are applied before postImmediately returns, after the value")
    func postsFromUpdates() throws {
        let hive = ServiceHive()
        let poster = Box<FunctionPoster?>(nil)
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, count, _ in
                badge.shown.append(count)
                poster.value?.post(count * 10, to: .other)
            }
        }
        try hive.register(function: .other) { _ in countFunction() }
        let center = FunctionCenter(hive: hive)
        poster.value = center.poster
        let badge = Badge()
        let other = Badge()
        try center.attach(badge, to: .count)
        try center.attach(other, to: .other)
        center.postImmediately(2, to: .count)
        #expect(badge.shown == [2])
        #expect(other.shown == [20])
    }

    @Test(
        "called from inside an update, it queues the value, which the running delivery applies once the update returns")
    func fromInsideAnUpdate() throws {
        let hive = ServiceHive()
        let center = Box<FunctionCenter?>(nil)
        let order = HookLog()
        try hive.register(function: .count) { _ in
            BusinessFunction { badge, count, _ in
                badge.shown.append(count)
                center.value?.postImmediately(count * 10, to: .other)
                order.entries.append("count \(count) done")
            }
        }
        try hive.register(function: .other) { _ in
            BusinessFunction { badge, count, _ in
                badge.shown.append(count)
                order.entries.append("other \(count)")
            }
        }
        center.value = FunctionCenter(hive: hive)
        let badge = Badge()
        let other = Badge()
        try center.value!.attach(badge, to: .count)
        try center.value!.attach(other, to: .other)
        center.value!.post(5, to: .other)
        center.value!.postImmediately(1, to: .count)
        #expect(order.entries == ["other 5", "count 1 done", "other 10"])
        #expect(other.shown == [5, 10])
        center.value = nil
    }

    @Test("every value a thread posted before postImmediately is called is applied before the immediate value")
    func orderWithConcurrentPosts() async throws {
        for round in 0..<5 {
            let center = FunctionCenter(hive: try countHive())
            let badge = Badge()
            try center.attach(badge, to: .count)
            let poster = center.poster
            let lastPosted = Locked(0)
            let go = Gate()
            async let posting: [Void] = onThreads(1, "round \(round)'s posts") { _ in
                guard go.wait() else { return }
                for value in 1...2_000 {
                    poster.post(value, to: .count)
                    lastPosted.withLock { $0 = value }
                }
            }
            // Immediate values, at least 200, and on until the thread has posted its last value: some are called
            // after posts, whatever the scheduling.
            var (step, posted, afterPosts) = (0, 0, 0)
            let deadline = ContinuousClock.now + waitLimit  // past it, the wait for the thread fails the test
            go.open()
            while step < 200 || (posted < 2_000 && ContinuousClock.now < deadline) {
                step += 1
                posted = lastPosted.current
                center.postImmediately(-step, to: .count)
                let applied = badge.shown.prefix { $0 != -step }.filter { $0 > 0 }
                #expect((applied.last ?? 0) >= posted, "post \(posted) was queued before -\(step), and applies first")
                if posted > 0 { afterPosts += 1 }
                await Task.yield()
            }
            _ = try await posting
            center.deliverPending()
            #expect(afterPosts > 0, "round \(round): an immediate value was called after a post")
            #expect(badge.shown.filter { $0 > 0 } == Array(1...2_000), "every post, in the order posted")
            #expect(badge.shown.filter { $0 < 0 } == (1...step).map { -$0 }, "every immediate value, in order")
        }
    }
}
