import ServiceHive
import Support
import Testing

@testable import ServiceHiveFunctions

/// A value tagged with the thread or task that posted it, and its place in that thread's sequence.
struct Tagged: Sendable, Equatable {
    var source: Int
    var sequence: Int
}

/// A control that records every tagged value it is given.
@MainActor
final class Recorder {
    var seen: [Tagged] = []
}

extension FunctionKey where Control == Recorder, Value == Tagged {
    static var tagged: Self { Self("test.tagged") }
    static func lane(_ index: Int) -> Self { Self("test.lane.\(index)") }
}

/// A hive whose tagged functions record values, for `lanes` lanes besides `.tagged`.
func recorderHive(lanes: Int = 0) throws -> ServiceHive {
    let hive = ServiceHive()
    for key in [FunctionKey<Recorder, Tagged>.tagged] + (0..<lanes).map(FunctionKey.lane) {
        try hive.register(function: key) { _ in BusinessFunction { recorder, value, _ in recorder.seen.append(value) } }
    }
    return hive
}

/// Whether `seen` holds, for each source, exactly its values 0..<count, in order.
func inOrder(_ seen: [Tagged], sources: Int, count: Int) -> Bool {
    (0..<sources).allSatisfy { source in
        seen.filter { $0.source == source }.map(\.sequence) == Array(0..<count)
    }
}

@Suite("Threading", .timeLimit(.minutes(5)))
@MainActor
struct ThreadingTests {
    @Test("values posted from each of 8 threads apply in the order each thread posted them")
    func orderFromThreads() async throws {
        for round in 0..<10 {
            let center = FunctionCenter(hive: try recorderHive())
            let recorder = Recorder()
            try center.attach(recorder, to: .tagged)
            let poster = center.poster
            try await onThreads(8, "round \(round)'s posts") { thread in
                for sequence in 0..<500 { poster.post(Tagged(source: thread, sequence: sequence), to: .tagged) }
            }
            center.deliverPending()
            #expect(recorder.seen.count == 8 * 500, "round \(round)")
            #expect(inOrder(recorder.seen, sources: 8, count: 500), "round \(round)")
        }
    }

    @Test("values posted from each of 8 tasks apply in the order each task posted them")
    func orderFromTasks() async throws {
        let center = FunctionCenter(hive: try recorderHive())
        let recorder = Recorder()
        try center.attach(recorder, to: .tagged)
        let poster = center.poster
        try await within("the posting tasks") {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for sequence in 0..<500 {
                            poster.post(Tagged(source: task, sequence: sequence), to: .tagged)
                            if sequence % 50 == 0 { await Task.yield() }
                        }
                    }
                }
            }
        }
        try await eventually("the 4,000 posted values to apply") { recorder.seen.count == 8 * 500 }
        #expect(inOrder(recorder.seen, sources: 8, count: 500))
    }

    @Test("values one thread posts to different keys apply in the order it posted them")
    func orderAcrossKeys() async throws {
        let hive = try recorderHive(lanes: 3)
        let center = FunctionCenter(hive: hive)
        let applied = HookLog()
        let recorders = (0..<3).map { _ in Recorder() }
        try hive.withOverrides {
            for lane in 0..<3 {
                $0.register(function: .lane(lane)) { _ in
                    BusinessFunction { recorder, value, _ in
                        recorder.seen.append(value)
                        applied.entries.append("\(lane):\(value.sequence)")
                    }
                }
            }
        } operation: {
            for lane in 0..<3 { try center.attach(recorders[lane], to: .lane(lane)) }
        }
        let poster = center.poster
        try await onThreads(1, "the posts") { _ in
            for sequence in 0..<900 { poster.post(Tagged(source: 0, sequence: sequence), to: .lane(sequence % 3)) }
        }
        center.deliverPending()
        #expect(applied.entries == (0..<900).map { "\($0 % 3):\($0)" })
    }

    @Test("10,000 controls: each gets the current value, every post updates every live one, released ones drop out")
    func tenThousandControls() throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        var badges = (0..<10_000).map { Badge("\($0)") }
        for badge in badges { try center.attach(badge, to: .count) }
        #expect(badges.allSatisfy { $0.shown == [0] })
        center.post(1, to: .count)
        center.deliverPending()
        #expect(badges.allSatisfy { $0.shown == [0, 1] })
        #expect(center.controls(of: .count).count == 10_000)

        for badge in badges[..<2_500] { center.detach(badge) }
        badges.removeSubrange(2_500..<5_000)  // released without detaching
        center.post(2, to: .count)
        center.deliverPending()
        #expect(center.state(of: .count).members.count == 5_000)
        #expect(center.controls(of: .count).count == 5_000)
        #expect(badges[..<2_500].allSatisfy { $0.shown == [0, 1] })
        #expect(badges[2_500...].allSatisfy { $0.shown == [0, 1, 2] })
    }

    @Test("posting from 6 threads while the main actor attaches, detaches and releases controls is race-free")
    func postWhileAttaching() async throws {
        let lanes = 3
        for round in 0..<8 {
            let center = FunctionCenter(hive: try recorderHive(lanes: lanes))
            let poster = center.poster
            // One control per lane stays attached throughout, and must see every value posted to its lane.
            let observers = (0..<lanes).map { _ in Recorder() }
            for lane in 0..<lanes { try center.attach(observers[lane], to: .lane(lane)) }
            // The threads start posting once the main actor is attaching, which goes on until they are done.
            let (go, posting) = (Gate(), Locked(6))
            async let posted: [Void] = onThreads(6, "round \(round)'s posts") { thread in
                defer { posting.withLock { $0 -= 1 } }
                guard go.wait() else { return }
                for sequence in 0..<400 {
                    poster.post(Tagged(source: thread, sequence: sequence), to: .lane(thread % lanes))
                }
            }
            var live: [Recorder] = []
            var kept: [(lane: Int, recorder: Recorder)] = []
            var step = 0
            let deadline = ContinuousClock.now + waitLimit  // past it, the wait for the threads fails the test
            while step < 600 || (posting.current > 0 && ContinuousClock.now < deadline) {
                let recorder = Recorder()
                let lane = step % lanes
                try center.attach(recorder, to: .lane(lane))
                live.append(recorder)
                if step == 0 { go.open() }
                if step % 3 == 0, let first = live.first {
                    center.detach(first)  // detached
                    live.removeFirst()
                }
                if step % 5 == 0, !live.isEmpty { live.removeLast() }  // released without detaching
                if step % 7 == 0 { center.deliverPending() }
                if step % 11 == 0 { await Task.yield() }  // lets the center deliver by itself, too
                if step % 50 == 0 { kept.append((lane, recorder)) }
                step += 1
            }
            _ = try await posted
            center.deliverPending()
            for (lane, observer) in observers.enumerated() {
                let sources = (0..<6).filter { $0 % lanes == lane }
                let seen = Dictionary(grouping: observer.seen, by: \.source).mapValues { $0.map(\.sequence) }
                #expect(
                    seen == Dictionary(uniqueKeysWithValues: sources.map { ($0, Array(0..<400)) }),
                    "round \(round): lane \(lane)'s observer saw every value of its threads, in order")
            }
            for (lane, recorder) in kept {
                let sequences = Dictionary(grouping: recorder.seen, by: \.source).mapValues { $0.map(\.sequence) }
                for (source, values) in sequences {
                    #expect(source % lanes == lane, "round \(round)")
                    #expect(values == values.sorted(), "round \(round): thread \(source)'s values in order")
                }
            }
            // A last value on each lane reaches every control still attached there.
            for lane in 0..<lanes { center.post(Tagged(source: 99, sequence: 0), to: .lane(lane)) }
            center.deliverPending()
            for lane in 0..<lanes {
                let controls = center.controls(of: FunctionKey<Recorder, Tagged>.lane(lane))
                #expect(controls.count > 1, "round \(round): lane \(lane) has its observer and other live controls")
                for control in controls {
                    #expect(control.seen.last == Tagged(source: 99, sequence: 0), "round \(round): ends current")
                }
            }
        }
    }
}
