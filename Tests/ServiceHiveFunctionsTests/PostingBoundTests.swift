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
    @Test("a delivery applies one batch, then lets the main actor run what was waiting behind it")
    func deliveryYieldsBetweenBatches() async throws {
        let center = FunctionCenter(hive: try recorderHive())
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        let count = 5 * Inbox.batchLimit
        // Posted while the test holds the main actor: the first post starts the one delivery task, which waits for it.
        for sequence in 0..<count { poster.post(Tagged(source: 0, sequence: sequence), to: .tagged) }
        // A probe queued on the main actor behind that delivery task. Unbounded, the delivery applied everything
        // before the probe ran; bounded, it applies one batch and queues the next behind the probe. Nothing here
        // depends on timing: the main actor runs its jobs in the order they were queued.
        let appliedBeforeProbe = await withCheckedContinuation { continuation in
            Task { @MainActor in continuation.resume(returning: recorder.seen.count) }
        }
        #expect(appliedBeforeProbe > 0, "the delivery task queued first ran first")
        #expect(
            appliedBeforeProbe < count,
            "one delivery applied all \(count) values before the main actor ran anything else")
        #expect(appliedBeforeProbe <= 2 * Inbox.batchLimit, "\(appliedBeforeProbe) values applied ahead of the probe")
        try await eventually("the rest to apply") { recorder.seen.count == count }
        #expect(recorder.seen.map(\.sequence) == Array(0..<count))
    }

    @Test("while the main actor is busy, at most the queue's bound of values wait, and each key ends at its latest")
    func waitingIsBounded() async throws {
        let center = FunctionCenter(hive: try recorderHive(lanes: 4))
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        let inbox = poster.inbox
        // The test holds the main actor while it posts, so nothing is delivered meanwhile: every value waits, as it
        // would behind a main actor kept busy. Unbounded, all 100,000 waited at once.
        let count = 50_000
        var mostWaiting = 0
        for sequence in 0..<count {
            poster.post(Tagged(source: 0, sequence: sequence), to: .tagged)
            poster.post(Tagged(source: 1, sequence: sequence), to: .lane(sequence % 4))
            mostWaiting = max(mostWaiting, inbox.count)
        }
        #expect(mostWaiting <= Inbox.waitingLimit, "\(mostWaiting) values waited at once")
        try await eventually("the last value posted to apply") { recorder.seen.last?.sequence == count - 1 }
        let sequences = recorder.seen.map(\.sequence)
        #expect(sequences.count < count, "older values of the key were dropped while the main actor was busy")
        #expect(
            sequences == sequences.sorted() && Set(sequences).count == sequences.count, "newer values only, in order")
    }

    @Test("a thread posting without pause never makes more than the queue's bound wait, and its last value applies")
    func floodingThread() async throws {
        let center = FunctionCenter(hive: try recorderHive(lanes: 4))
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        let inbox = poster.inbox
        // A raw thread posts flat out for a fixed count, while the main actor delivers. How fast each side runs is
        // the scheduler's; the bound on what waits, and the order of what applies, are not.
        let posted = try await onThreads(1, "the flooding thread") { _ -> (count: Int, mostWaiting: Int) in
            let count = 200_000
            var mostWaiting = 0
            for sequence in 0..<count {
                poster.post(Tagged(source: 0, sequence: sequence), to: .tagged)
                poster.post(Tagged(source: 1, sequence: sequence), to: .lane(sequence % 4))
                if sequence % 256 == 0 { mostWaiting = max(mostWaiting, inbox.count) }
            }
            return (count, mostWaiting)
        }
        let lastSequence = posted[0].count - 1
        try await eventually("the last value posted to apply") { recorder.seen.last?.sequence == lastSequence }
        #expect(posted[0].mostWaiting <= Inbox.waitingLimit, "\(posted[0].mostWaiting) values waited at once")
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
