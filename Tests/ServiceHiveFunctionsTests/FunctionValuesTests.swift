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

@Suite("Function values as an AsyncSequence")
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

    @Test("a burst of 10,000 posts keeps at most one value waiting for a slow consumer: the latest")
    func boundedBurst() async throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let values = try center.values(.count)
        #expect(values.stream.buffered == 1, "the current value waits")
        for count in 1...10_000 {
            center.post(count, to: .count)
            if count.isMultiple(of: 100) {
                center.deliverPending()
                #expect(values.stream.buffered == 1)
            }
        }
        #expect(try await next(values) == 10_000)
        #expect(values.stream.buffered == 0)
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
        for round in 0..<6 {
            let center = FunctionCenter(hive: try countHive(current: 0))
            let poster = center.poster
            async let posting: [Void] = onThreads(6, "the posting threads") { thread in
                for count in 1...400 { poster.post(thread * 1_000 + count, to: .count) }
            }
            var consumers: [Task<[Int], any Error>] = []
            for step in 0..<60 {
                let values = try center.values(.count)
                if step.isMultiple(of: 3) { consumers.append(consume(values)) }
                if step.isMultiple(of: 4), let first = consumers.first {
                    first.cancel()
                    consumers.removeFirst()
                }
                if step.isMultiple(of: 5) { center.deliverPending() }
                if step.isMultiple(of: 7) { await Task.yield() }
            }
            _ = try await posting
            center.deliverPending()
            for consumer in consumers { consumer.cancel() }
            for consumer in consumers {
                let seen = try await within("round \(round): a cancelled consumer to end") {
                    try await value(of: consumer)
                }
                for thread in 0..<6 {
                    let own = seen.filter { $0 / 1_000 == thread && $0 > 0 }
                    #expect(increasing(own), "round \(round): thread \(thread)'s values in order")
                }
            }
        }
    }
}
