import Observation
import ServiceHive
import Support
import Testing

@testable import ServiceHiveFunctions

/// A value that is not `Equatable`: every post changes an observed value of it.
struct Reading: Sendable {
    var count: Int
}

/// A control that shows a reading.
@MainActor
final class Gauge {
    var shown: [Int] = []
}

extension FunctionKey where Control == Gauge, Value == Reading {
    static var reading: Self { Self("test.reading") }
}

/// Tracks `observed.value` once with `withObservationTracking`, and counts the changes Observation reports in
/// `changes`: at most one, since a tracking ends at its first change.
@MainActor
func track<Value>(_ observed: ObservedFunction<Value>, into changes: Locked<Int>) {
    withObservationTracking {
        _ = observed.value
    } onChange: {
        changes.increment()
    }
}

/// Tracks `observed.value` with `withObservationTracking`, and tracks it again inside each `onChange`, as SwiftUI does
/// when it redraws, so that `changes` counts every change Observation reports, not only the first.
///
/// `onChange` runs in `willSet`, on the main actor that posts, before the value changes; the tracking it installs
/// sees the next change, not this one. It holds the observed value weakly: the observed value holds the tracking, and
/// the two would keep each other.
@MainActor
func trackEveryChange<Value>(_ observed: ObservedFunction<Value>, into changes: Locked<Int>) {
    withObservationTracking {
        _ = observed.value
    } onChange: { [weak observed] in
        changes.increment()
        MainActor.assumeIsolated {
            if let observed { trackEveryChange(observed, into: changes) }
        }
    }
}

@Suite("Observed values", .timeLimit(.minutes(5)))
@MainActor
struct ObservedFunctionTests {
    @Test("an observed value starts with the function's current value, as an attached control does")
    func currentValue() throws {
        let center = FunctionCenter(hive: try countHive(current: 3))
        #expect(try center.observed(.count).value == 3)
    }

    @Test("without a current value, an observed value starts with the last delivered value, or with none")
    func latestValue() throws {
        let center = FunctionCenter(hive: try countHive())
        let early = try center.observed(.count)
        #expect(early.value == nil)
        center.post(4, to: .count)
        center.deliverPending()
        #expect(early.value == 4)

        let other = FunctionCenter(hive: try countHive())
        other.post(5, to: .count)
        other.deliverPending()
        #expect(try other.observed(.count).value == 5)
    }

    @Test("every call for a key gives the same object, which every post keeps current")
    func oneObjectPerKey() throws {
        let hive = try countHive(current: 1)
        try hive.register(function: .other) { _ in countFunction(current: { 9 }) }
        let center = FunctionCenter(hive: hive)
        let first = try center.observed(.count)
        let second = try center.observed(.count)
        #expect(first === second)
        #expect(try center.observed(.other) !== first)
        center.post(2, to: .count)
        center.deliverPending()
        #expect(first.value == 2)
        #expect(try center.observed(.other).value == 9)
    }

    @Test("Observation, tracking again after each change, sees exactly one change per delivered post")
    func oneChangePerPost() throws {
        let center = FunctionCenter(hive: try countHive(current: 0))
        let observed = try center.observed(.count)
        let changes = Locked(0)
        trackEveryChange(observed, into: changes)  // once: a second change in one post would count too
        for count in 1...500 {
            if count.isMultiple(of: 2) {
                center.post(count, to: .count)
                center.deliverPending()
            } else {
                center.postImmediately(count, to: .count)
            }
            #expect(changes.current == count, "post \(count)")
            #expect(observed.value == count)
        }
    }

    @Test("a post of the value an observed value holds changes nothing and triggers no observation")
    func equalValueChangesNothing() throws {
        let center = FunctionCenter(hive: try countHive(current: 7))
        let observed = try center.observed(.count)
        let changes = Locked(0)
        track(observed, into: changes)
        for _ in 0..<100 {
            center.post(7, to: .count)
            center.deliverPending()
            center.postImmediately(7, to: .count)
        }
        #expect(changes.current == 0)
        center.post(8, to: .count)
        center.post(8, to: .count)
        center.deliverPending()
        #expect(changes.current == 1, "the tracking installed before the equal posts still sees the change")
        #expect(observed.value == 8)
        track(observed, into: changes)
        center.post(8, to: .count)
        center.deliverPending()
        #expect(changes.current == 1)
    }

    @Test("a value that is not Equatable changes an observed value at every post, equal or not")
    func notEquatable() throws {
        let hive = ServiceHive()
        try hive.register(function: .reading) { _ in
            BusinessFunction(currentValue: { Reading(count: 1) }) { gauge, reading, _ in
                gauge.shown.append(reading.count)
            }
        }
        let center = FunctionCenter(hive: hive)
        let observed = try center.observed(.reading)
        let changes = Locked(0)
        trackEveryChange(observed, into: changes)
        for round in 1...50 {
            center.post(Reading(count: 1), to: .reading)
            center.deliverPending()
            #expect(changes.current == round)
        }
    }

    @Test("an observed value made by generic code, which doesn't know that Value is Equatable, still compares values")
    func genericCaller() throws {
        @MainActor
        func observedGenerically<Control, Value>(
            _ key: FunctionKey<Control, Value>, in center: FunctionCenter
        ) throws -> ObservedFunction<Value> {
            try center.observed(key)
        }
        let center = FunctionCenter(hive: try countHive(current: 1))
        let generic = try observedGenerically(FunctionKey<Badge, Int>.count, in: center)
        #expect(try center.observed(.count) === generic)
        let changes = Locked(0)
        track(generic, into: changes)
        center.postImmediately(1, to: .count)
        #expect(changes.current == 0)
        center.postImmediately(2, to: .count)
        #expect(changes.current == 1)
    }

    @Test("a post updates the key's controls first, through the function, then its observed value")
    func controlsFirst() throws {
        let log = Locked<[String]>([])
        let hive = ServiceHive()
        let observedBox = Box<ObservedFunction<Int>?>(nil)
        try hive.register(function: .count) { _ in
            BusinessFunction(currentValue: { 0 }) { badge, count, _ in
                let seen = observedBox.value?.value.map(String.init) ?? "none"
                log.withLock { $0.append("control \(badge.name) \(count), observed \(seen)") }
            }
        }
        let center = FunctionCenter(hive: hive)
        let badges = [Badge("a"), Badge("b")]
        for badge in badges { try center.attach(badge, to: .count) }
        observedBox.value = try center.observed(.count)
        let observed = try #require(observedBox.value)
        log.withLock { $0.removeAll() }
        for count in 1...3 {
            withObservationTracking {
                _ = observed.value
            } onChange: {
                log.withLock { $0.append("observed changes") }
            }
            center.post(count, to: .count)
            center.deliverPending()
        }
        #expect(
            log.current == [
                "control a 1, observed 0", "control b 1, observed 0", "observed changes",
                "control a 2, observed 1", "control b 2, observed 1", "observed changes",
                "control a 3, observed 2", "control b 3, observed 2", "observed changes",
            ])
    }

    @Test("the function's hooks keep running for controls while the key is observed, and none runs for the observer")
    func hooksAreForControls() throws {
        let log = HookLog()
        let center = try loggingCenter(log: log) { _, count in count == 2 }
        let badge = Badge("a")
        let delegate = LoggingDelegate(log: log) { $0 == 3 }
        try center.attach(badge, to: .count, delegate: delegate)
        let observed = try center.observed(.count)
        for count in 1...4 { center.post(count, to: .count) }
        center.deliverPending()
        #expect(badge.shown == [1, 4])
        #expect(observed.value == 4)
        #expect(
            log.entries == [
                "function.shouldUpdate a 1", "delegate.shouldUpdate a 1", "delegate.willUpdate a 1", "update a 1",
                "delegate.didUpdate a 1",
                "function.shouldUpdate a 2",
                "function.shouldUpdate a 3", "delegate.shouldUpdate a 3",
                "function.shouldUpdate a 4", "delegate.shouldUpdate a 4", "delegate.willUpdate a 4", "update a 4",
                "delegate.didUpdate a 4",
            ])
    }

    @Test("the values the function's shouldUpdate refuses to every control still reach the observed value")
    func refusedByEveryControl() throws {
        let center = try loggingCenter(log: HookLog()) { _, _ in true }
        let badge = Badge()
        try center.attach(badge, to: .count)
        let observed = try center.observed(.count)
        let changes = Locked(0)
        track(observed, into: changes)
        center.postImmediately(5, to: .count)
        #expect(badge.shown.isEmpty)
        #expect(observed.value == 5)
        #expect(changes.current == 1)
    }

    @Test("the center holds an observed value weakly: released, it is gone, and the key forgets it at its next post")
    func releasedObserver() throws {
        let center = FunctionCenter(hive: try countHive(current: 1))
        var observed: ObservedFunction<Int>? = try center.observed(.count)
        weak let released = observed
        #expect(center.state(of: .count).holdsObserved)
        observed = nil
        #expect(released == nil)
        #expect(center.state(of: .count).holdsObserved, "not swept before a post")
        center.post(2, to: .count)
        center.deliverPending()
        #expect(!center.state(of: .count).holdsObserved, "swept by the post")
        #expect(!center.state(of: .count).isObserved)

        let again = try center.observed(.count)
        #expect(again.value == 1, "a new one, with the function's current value")
    }

    @Test("an observed value keeps neither its center nor its controls alive, and keeps its last value")
    func releasedCenter() throws {
        var center: FunctionCenter? = FunctionCenter(hive: try countHive(current: 1))
        weak let releasedCenter = center
        var badge: Badge? = Badge()
        weak let releasedBadge = badge
        try center!.attach(badge!, to: .count)
        let observed = try center!.observed(.count)
        center!.postImmediately(2, to: .count)
        let poster = center!.poster
        center = nil
        badge = nil
        #expect(releasedCenter == nil)
        #expect(releasedBadge == nil)
        poster.post(3, to: .count)
        #expect(observed.value == 2)
    }

    @Test("observing a key whose function is missing throws, and makes nothing")
    func missingFunction() throws {
        let center = FunctionCenter(hive: ServiceHive())
        let error = #expect(throws: FunctionError.self) { try center.observed(.count) }
        #expect(error?.description.hasPrefix("No function is registered for test.count (Badge, Int).") == true)
        #expect(!center.state(of: .count).holdsObserved)
    }

    @Test("each control update sees the value the observed value took at the post before, while 8 threads post")
    func orderFromThreads() async throws {
        for round in 0..<10 {
            let hive = ServiceHive()
            let observedBox = Box<ObservedFunction<Tagged>?>(nil)
            let mismatches = Locked(0)
            try hive.register(function: .tagged) { _ in
                BusinessFunction { recorder, value, _ in
                    // The observed value still holds the value this control got at the post before.
                    if observedBox.value?.value != recorder.seen.last { mismatches.increment() }
                    recorder.seen.append(value)
                }
            }
            let center = FunctionCenter(hive: hive)
            let recorder = Recorder()
            try center.attach(recorder, to: .tagged)
            observedBox.value = try center.observed(.tagged)
            let poster = center.poster
            try await onThreads(8) { thread in
                for sequence in 0..<300 { poster.post(Tagged(source: thread, sequence: sequence), to: .tagged) }
            }
            center.deliverPending()
            #expect(recorder.seen.count == 8 * 300, "round \(round)")
            #expect(inOrder(recorder.seen, sources: 8, count: 300), "round \(round)")
            #expect(observedBox.value?.value == recorder.seen.last, "round \(round)")
            #expect(mismatches.current == 0, "round \(round)")
        }
    }
}
