import ServiceHive
import Support
import Testing

@testable import ServiceHiveFunctions

/// Iterates `values` in a task of its own until it yields `last` or ends, and returns what it yielded.
func consume(_ values: FunctionValues<Int>, until last: Int? = nil) -> Task<[Int], any Error> {
    Task.detached {
        var seen: [Int] = []
        for await value in values {
            seen.append(value)
            if value == last { break }
        }
        return seen
    }
}

/// The next value of `values`, or `nil` once it ends, waited for at most 20 seconds, so that a value that never comes
/// fails the test instead of hanging it.
func next(_ values: FunctionValues<Int>) async throws -> Int? {
    try await within("the next value") {
        var iterator = values.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Whether `values` only grow.
func increasing(_ values: [Int]) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
}

/// A consumer as slow as the test makes it: in a task of its own, it takes the first value of `values` at once, and
/// each next one only when the test lets it, so that what it misses depends on what the test delivers while it waits,
/// never on the scheduler.
final class SlowConsumer: Sendable {
    private let taken: Locked<[Int]>
    /// One gate for each value after the first: the consumer asks for the next value once its gate opens.
    private let gates: [Gate]
    private let task: Task<Void, Never>

    /// A consumer of `values` that takes at most `count` of them.
    init(_ values: FunctionValues<Int>, takes count: Int) {
        let taken = Locked<[Int]>([])
        let gates = (1..<count).map { _ in Gate() }
        self.taken = taken
        self.gates = gates
        task = Task.detached {
            var iterator = values.makeAsyncIterator()
            for index in 0..<count {
                if index > 0 {
                    do {
                        try await gates[index - 1].opened("the test to let the consumer take value \(index + 1)")
                    } catch {
                        return
                    }
                }
                guard let value = await iterator.next() else { return }
                taken.withLock { $0.append(value) }
            }
        }
    }

    deinit {
        task.cancel()
        for gate in gates { gate.open() }
    }

    /// The values it took, in order.
    var seen: [Int] { taken.current }

    /// Waits until it has taken `count` values.
    func took(_ count: Int, isolation: isolated (any Actor)? = #isolation) async throws {
        try await eventually("the slow consumer to take \(count) values") { taken.current.count >= count }
    }

    /// Lets it take its next value, the one waiting or the next one delivered, without waiting until it has.
    func letTakeNext() {
        gates[taken.current.count - 1].open()
    }

    /// Lets it take its next value, the one waiting or the next one delivered, and waits until it has.
    func takeNext(isolation: isolated (any Actor)? = #isolation) async throws {
        let count = taken.current.count
        letTakeNext()
        try await took(count + 1)
    }
}

@Suite("Function values as an AsyncSequence", .timeLimit(.minutes(5)))
@MainActor
struct FunctionValuesTests {
    @Test("a sequence yields the key's current value first, then each delivered value, in order")
    func currentThenEachValue() async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let values = try center.values(.count)
        #expect(try await next(values) == 0)
        for count in 1...200 {
            if count.isMultiple(of: 2) {
                center.post(count, to: .count)
                center.deliverPending()
            } else {
                center.postImmediately(count, to: .count)
            }
            #expect(try await next(values) == count)
        }
    }

    @Test("without a current value, a sequence starts with the last delivered value, or with the next one")
    func latestValue() async throws {
        let center = FunctionCenter(hive: try countHive())
        let early = try center.values(.count)
        center.postImmediately(4, to: .count)
        let late = try center.values(.count)
        #expect(try await next(late) == 4)
        center.postImmediately(5, to: .count)
        #expect(try await next(early) == 5, "the latest wins: 4 was never taken")
        #expect(try await next(late) == 5)
    }

    @Test("values posted before a sequence is made are delivered first, so none comes after the current value")
    func pendingDeliveredFirst() async throws {
        let count = Box(0)
        let hive = ServiceHive()
        try hive.register(function: .count) { _ in countFunction(current: { count.value }) }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        try center.attach(badge, to: .count)
        for value in 1...3 {
            count.value = value
            center.post(value, to: .count)  // queued: the business is ahead of what was delivered
        }
        let values = try center.values(.count)
        #expect(badge.shown == [0, 1, 2, 3], "delivered before the sequence was made")
        let consumer = consume(values, until: 4)
        try await eventually("the consumer took the current value, 3") { values.stream.buffered == 0 }
        center.postImmediately(4, to: .count)
        let seen = try await within("the consumer to see 4") { try await value(of: consumer) }
        #expect(seen == [3, 4])
    }

    @Test(
        "after a burst of 10,000 posts, queued or immediate, a slow consumer gets the current value, then the latest",
        arguments: [false, true])
    func boundedBurst(immediately: Bool) async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let consumer = SlowConsumer(try center.values(.count), takes: 3)
        try await consumer.took(1)  // the current value, 0: it takes no other until the test lets it
        for count in 1...10_000 {
            if immediately {
                center.postImmediately(count, to: .count)
            } else {
                center.post(count, to: .count)
                if count.isMultiple(of: 100) { center.deliverPending() }
            }
        }
        try await consumer.takeNext()
        // Were more than one value kept, the next would be an older one, not this one posted after the burst.
        center.postImmediately(10_001, to: .count)
        try await consumer.takeNext()
        #expect(consumer.seen == [0, 10_000, 10_001])
    }

    @Test("a slow consumer, while a thread posts and the main actor delivers, takes the latest value, or the first")
    func slowConsumerWhileAThreadPosts() async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let poster = center.poster
        let consumer = SlowConsumer(try center.values(.count), takes: 41)
        try await consumer.took(1)
        for batch in 1...40 {
            // In odd batches the consumer waits for a value while the thread posts, and takes one of the batch's; in
            // even ones it is busy, and takes the batch's last, which replaced what was waiting.
            let waiting = !batch.isMultiple(of: 2)
            if waiting { consumer.letTakeNext() }
            // While the thread posts, the main actor is free, and delivers as the values come.
            try await onThreads(1, "batch \(batch)") { _ in
                for count in 1...500 { poster.post(batch * 1_000 + count, to: .count) }
            }
            center.deliverPending()
            if waiting {
                try await consumer.took(batch + 1)
            } else {
                try await consumer.takeNext()
            }
        }
        let seen = consumer.seen
        #expect(seen.count == 41)
        #expect(increasing(seen), "\(seen)")
        for batch in 1...40 where seen.count == 41 {
            let value = seen[batch]
            if batch.isMultiple(of: 2) {
                #expect(value == batch * 1_000 + 500, "batch \(batch): the latest, nothing older")
            } else {
                #expect((batch * 1_000 + 1...batch * 1_000 + 500).contains(value), "batch \(batch): \(value)")
            }
        }
    }

    @Test("a consumer in another task sees increasing values that end with the last, while a thread posts 2,000")
    func orderWithConcurrentConsumer() async throws {
        for round in 0..<20 {
            let center = FunctionCenter(hive: try countHive(current: 0))
            let poster = center.poster
            let consumer = consume(try center.values(.count), until: 2_000)
            try await onThreads(1) { _ in
                for count in 1...2_000 { poster.post(count, to: .count) }
            }
            let seen = try await within("round \(round): the consumer to see 2,000") { try await value(of: consumer) }
            #expect(seen.last == 2_000, "round \(round)")
            #expect(increasing(seen), "round \(round): in order, some skipped at most")
        }
    }

    @Test("a loop on the main actor gets the values too, waiting on the main actor for the first one")
    func loopOnTheMainActor() async throws {
        let center = FunctionCenter(hive: try countHive())  // no value yet: the loop waits for the first
        let values = try center.values(.count)
        let loop = Task { @MainActor () throws -> [Int] in
            var seen: [Int] = []
            for await count in values {
                seen.append(count)
                guard count < 100 else { break }
                center.postImmediately(count + 1, to: .count)
            }
            return seen
        }
        await Task.yield()
        center.postImmediately(1, to: .count)
        let seen = try await within("the main actor's loop to see 100") { try await value(of: loop) }
        #expect(seen == Array(1...100))
    }

    @Test("a consumer that keeps up gets every value, one task posting and waiting for each in turn")
    func everyValueWhenKeepingUp() async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let values = try center.values(.count)
        let taken = Locked(0)
        let consumer = Task.detached { () throws -> [Int] in
            var seen: [Int] = []
            for await value in values {
                seen.append(value)
                taken.increment()
                if value == 300 { break }
            }
            return seen
        }
        try await eventually("the consumer took the first value") { taken.current == 1 }
        for count in 1...300 {
            center.postImmediately(count, to: .count)
            try await eventually("the consumer to take \(count)") { taken.current == count + 1 }
        }
        let seen = try await within("the consumer to end") { try await value(of: consumer) }
        #expect(seen == Array(0...300))
    }

    @Test("cancelling the consumer's task ends the sequence at once, and the key forgets it at its next post")
    func cancellationEnds() async throws {
        for round in 0..<100 {
            let center = FunctionCenter(hive: try countHive(current: 0))
            let consumer = consume(try center.values(.count))
            if round.isMultiple(of: 2) {
                try await eventually("the consumer took the value") {
                    center.state(of: .count).streams.first?.object?.buffered == 0
                }
            }
            center.postImmediately(1, to: .count)
            consumer.cancel()
            center.postImmediately(2, to: .count)
            let seen = try await within("round \(round): the cancelled consumer to end") {
                try await value(of: consumer)
            }
            #expect(increasing(seen), "round \(round)")
            #expect(!seen.contains(2), "round \(round): nothing after the cancellation")
            center.postImmediately(3, to: .count)
            #expect(center.state(of: .count).streams.isEmpty, "round \(round): swept by the post")
        }
    }

    @Test("a sequence whose task is cancelled before it iterates yields nothing")
    func cancelledBeforeIterating() async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let values = try center.values(.count)
        let consumer = Task.detached { () throws -> [Int] in
            withUnsafeCurrentTask { $0?.cancel() }
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        #expect(try await within("the consumer to end") { try await value(of: consumer) }.isEmpty)
        center.postImmediately(1, to: .count)
        #expect(center.state(of: .count).streams.isEmpty, "a cancelled sequence is swept at the next post")
    }

    @Test("a sequence ends when its center is released, after the value it holds")
    func centerReleased() async throws {
        for round in 0..<50 {
            var center: FunctionCenter? = FunctionCenter(hive: try countHive(current: 0))
            weak let released = center
            let values = try center!.values(.count)
            let holdsAValue = round.isMultiple(of: 2)
            let consumer = consume(values)
            try await eventually("round \(round): the consumer took 0") { values.stream.buffered == 0 }
            // The consumer waits for the next value, or is about to: 1 is handed to it, or waits for it.
            if holdsAValue { center!.postImmediately(1, to: .count) }
            center = nil
            #expect(released == nil, "round \(round)")
            let seen = try await within("round \(round): the consumer to end") { try await value(of: consumer) }
            #expect(seen == (holdsAValue ? [0, 1] : [0]), "round \(round)")
        }
    }

    @Test("a sequence whose center is gone before it iterates yields the value it holds, if any, then ends")
    func iteratedAfterCenterReleased() async throws {
        for current in [nil, 3] as [Int?] {
            var center: FunctionCenter? = FunctionCenter(hive: try countHive(current: current))
            let values = try center!.values(.count)
            center = nil
            if let current { #expect(try await next(values) == current) }
            #expect(try await next(values) == nil)
            #expect(try await next(values) == nil)
        }
    }

    @Test("a sequence that nobody holds is released, and the key forgets it at its next post")
    func releasedSequence() throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        var values: FunctionValues<Int>? = try center.values(.count)
        weak let stream = values?.stream
        let kept = try center.values(.count)
        #expect(center.state(of: .count).streams.count == 2)
        values = nil
        #expect(stream == nil)
        center.postImmediately(1, to: .count)
        #expect(center.state(of: .count).streams.count == 1)
        #expect(kept.stream.buffered == 1)
    }

    @Test("sequences made and dropped without a post don't grow the key's list without bound")
    func boundedWithoutPosts() throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let kept = try center.values(.count)
        for _ in 0..<10_000 { _ = try center.values(.count) }
        #expect(center.state(of: .count).streams.count <= 2 * KeyState<Badge, Int>.minimumSweepThreshold)
        center.postImmediately(1, to: .count)
        #expect(center.state(of: .count).streams.count == 1)
        #expect(kept.stream.buffered == 1)
    }

    @Test("a sequence gets each value after the key's controls")
    func afterControls() throws {
        let hive = ServiceHive()
        let streamBox = Box<ValueStream<Int>?>(nil)
        let bufferedAtUpdate = Box<[Int]>([])
        try hive.register(function: .count) { _ in
            BusinessFunction { _, _, _ in bufferedAtUpdate.value.append(streamBox.value?.buffered ?? -1) }
        }
        let center = FunctionCenter(hive: hive)
        let badge = Badge()
        try center.attach(badge, to: .count)
        let values = try center.values(.count)
        streamBox.value = values.stream
        center.postImmediately(1, to: .count)
        #expect(bufferedAtUpdate.value == [0])
        #expect(values.stream.buffered == 1)
    }

    @Test("asking for the values of a key whose function is missing throws, and adds nothing")
    func missingFunction() throws {
        let center = FunctionCenter(hive: ServiceHive())
        #expect(throws: FunctionError.self) { try center.values(.count) }
        #expect(center.state(of: .count).streams.isEmpty)
    }

    @Test("iterating one sequence from two tasks at once traps, with a message that says what to do")
    func twoConsumersTrap() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let center = try await MainActor.run {
                    let center = FunctionCenter(hive: try countHive())
                    let values = try center.values(.count)  // no value: both consumers wait
                    _ = (consume(values), consume(values))
                    return center
                }
                try await Task.sleep(for: .seconds(60))
                withExtendedLifetime(center) {}
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "A FunctionValues sequence was iterated from two tasks at once. To fix, iterate it from one task; for "
                    + "a second consumer, call values(_:) again."))
    }

    @Test("posting from 6 threads while the main actor makes, iterates, cancels and drops sequences is race-free")
    func postWhileConsuming() async throws {
        /// A consumer, and what it has taken so far.
        struct Consumer {
            let task: Task<Void, Never>
            let seen: Locked<[Int]>
            /// How many values the badge had been given when the consumer was cancelled.
            var deliveredBeforeCancel = 0
        }
        // A value is its source times 10,000,000 plus its rank: sources 0 to 5 are the threads, 6 the main actor.
        let final = 90_000_000  // posted by the test once the threads are done
        for round in 0..<6 {
            let center = FunctionCenter(hive: try countHive(current: 0))
            // The badge is given every value before the sequences are: what a sequence can have seen.
            let badge = Badge()
            try center.attach(badge, to: .count)
            let poster = center.poster
            async let posting: [Void] = onThreads(6, "the posting threads") { thread in
                for count in 1...400 {
                    poster.post(thread * 10_000_000 + count, to: .count)
                    if count.isMultiple(of: 10) { pause(milliseconds: 1) }
                }
            }
            var running: [Consumer] = []
            var cancelled: [Consumer] = []
            var ownPosts = 0
            for step in 0..<60 {
                let values = try center.values(.count)
                if step.isMultiple(of: 3) {
                    let seen = Locked<[Int]>([])
                    let task = Task.detached {
                        for await value in values { seen.withLock { $0.append(value) } }
                    }
                    running.append(Consumer(task: task, seen: seen))
                }
                if step.isMultiple(of: 4), var first = running.first {
                    // Before it goes, it takes the value it held, then a value posted after that one, whether the
                    // threads still post or not: the main actor posts one.
                    try await eventually("round \(round): a consumer to take its first value") {
                        !first.seen.current.isEmpty
                    }
                    ownPosts += 1
                    center.postImmediately(6 * 10_000_000 + ownPosts, to: .count)
                    try await eventually("round \(round): a consumer to take a posted value") {
                        first.seen.current.count >= 2
                    }
                    first.task.cancel()
                    first.deliveredBeforeCancel = badge.shown.count
                    cancelled.append(first)
                    running.removeFirst()
                }
                if step.isMultiple(of: 5) { center.deliverPending() }
                if step.isMultiple(of: 7) { await Task.yield() }
            }
            _ = try await posting
            center.postImmediately(final, to: .count)
            // The consumers still running end with the last value, and are cancelled then.
            for consumer in running {
                try await eventually("round \(round): a running consumer to take the last value") {
                    consumer.seen.current.last == final
                }
                consumer.task.cancel()
            }
            #expect(cancelled.count == 15 && running.count == 5, "round \(round)")
            for consumer in cancelled + running {
                try await within("round \(round): a cancelled consumer to end") { await consumer.task.value }
                let seen = consumer.seen.current
                // Those cancelled early took their first value and a posted one; the others, the last at least.
                #expect(!seen.isEmpty, "round \(round)")
                for source in 0..<7 {
                    let own = seen.filter { $0 / 10_000_000 == source && $0 > 0 }
                    #expect(increasing(own), "round \(round): source \(source)'s values in order")
                }
                #expect(Set(seen).count == seen.count, "round \(round): each value once")
            }
            for consumer in cancelled {
                // Nothing delivered after the cancellation reached it: its values are the current one and values the
                // badge had been given by then.
                let before = Set(badge.shown.prefix(consumer.deliveredBeforeCancel)).union([0])
                let seen = consumer.seen.current
                #expect(seen.count >= 2, "round \(round): its first value and a posted one at least")
                #expect(seen.allSatisfy(before.contains), "round \(round): \(seen.filter { !before.contains($0) })")
            }
        }
    }
}
