import Foundation
import ServiceHive
import Support
import Testing

@testable import ServiceHiveFunctions

// A thread that posts without pause neither starves the main actor nor grows the queue: a delivery applies a bounded
// batch and then lets the main actor run other work, and while values wait, a key keeps only its latest one once the
// queue is full.

@Suite("A poster that never pauses", .timeLimit(.minutes(3)))
@MainActor
struct PostingBoundTests {
    @Test("a thread posting without pause for 3 s neither stalls the main actor nor grows the queue past its bound")
    func floodingThread() async throws {
        let center = FunctionCenter(hive: try recorderHive(lanes: 4))
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        let inbox = poster.inbox
        let posting = Duration.seconds(3)
        let done = Locked(false)
        // The poster runs on a thread of its own, flat out for `posting`, to the tagged key and to four lanes that
        // nothing shows. It stops by itself, so that a starved main actor fails the test instead of hanging it.
        async let posted = onThreads(1, "the flooding thread") { _ -> (count: Int, mostWaiting: Int) in
            defer { done.withLock { $0 = true } }
            let end = ContinuousClock.now + posting
            var sequence = 0
            var mostWaiting = 0
            while sequence % 256 != 0 || ContinuousClock.now < end {
                poster.post(Tagged(source: 0, sequence: sequence), to: .tagged)
                poster.post(Tagged(source: 1, sequence: sequence), to: .lane(sequence % 4))
                sequence += 1
                if sequence % 256 == 0 { mostWaiting = max(mostWaiting, inbox.count) }
            }
            return (sequence, mostWaiting)
        }
        // Meanwhile the main actor sleeps 5 ms at a time, and notes the longest it went without running.
        var longestGap = Duration.zero
        let clock = ContinuousClock()
        var last = clock.now
        while !done.current {
            try await Task.sleep(for: .milliseconds(5))
            let now = clock.now
            longestGap = max(longestGap, now - last)
            last = now
        }
        let result = try await posted
        let lastSequence = result[0].count - 1
        try await eventually("the last value posted to apply") { recorder.seen.last?.sequence == lastSequence }

        // Unbounded, the one delivery ran for the whole flood (2.7 s of 2 s in the report that found it), and more
        // than a million values waited. The bounds leave room for a loaded machine under a sanitizer.
        #expect(longestGap < posting / 2, "the main actor went \(longestGap) without running")
        #expect(result[0].mostWaiting <= Inbox.waitingLimit, "\(result[0].mostWaiting) values waited at once")
        #expect(result[0].count > Inbox.waitingLimit, "the thread posted more than the queue holds")
        let sequences = recorder.seen.map(\.sequence)
        #expect(
            sequences == sequences.sorted() && Set(sequences).count == sequences.count, "newer values only, in order")
    }

    @Test("up to the queue's bound, every value posted from a thread applies, in order")
    func everyValueUnderTheBound() async throws {
        let center = FunctionCenter(hive: try recorderHive())
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        let count = Inbox.waitingLimit - 1
        try await onThreads(1, "the posting thread") { _ in
            for sequence in 0..<count { poster.post(Tagged(source: 0, sequence: sequence), to: .tagged) }
        }
        try await eventually("the posted values to apply") { recorder.seen.count == count }
        #expect(recorder.seen.map(\.sequence) == Array(0..<count))
    }
}
