import Benchmark
import Foundation
import ServiceHive
import ServiceHiveFunctions

// Business functions: one value posted to 10,000 live controls, and a control attached and detached beside 10,000
// (20–21); observed values against controls, 1,000 of each (27). Every implementation updates the controls with the
// same closure, `Controls.showCount`, on the main actor:
//
// - `direct` loops over the controls themselves, held strongly: the update alone;
// - the `floor` is what the issue names, a hand-written loop over an array of weak boxes;
// - `NotificationCenter` is what an app writes without us: one observer per control, the value in `userInfo`;
// - ServiceHive posts through a `FunctionCenter` and delivers at once with `deliverPending()`, so that the time
//   includes queueing the value, taking it on the main actor and updating every control through its hooks.
//
// Each implementation has 10,000 controls of its own, made the first time it runs, and measures on the main actor
// between `startMeasurement()` and `stopMeasurement()`, so that hopping there is not counted.

func functionScenarios() {
    // MARK: 20 post one value to 10,000 live controls

    do {
        let scenario = Scenario(
            "20 post one value to 10,000 live controls", configuration: Configurations.perLongOperation)
        scenario.measure(.direct) { @MainActor benchmark async in
            let controls = Controls.posting
            let value = controls.nextValue()
            benchmark.startMeasurement()
            for label in controls.labels { Controls.showCount(label, value, [:]) }
            benchmark.stopMeasurement()
            controls.checkShown(value)
        }
        scenario.measure(.serviceHive) { @MainActor benchmark async in
            let controls = Controls.posting
            let center = controls.center
            let value = controls.nextValue()
            benchmark.startMeasurement()
            center.post(value, to: .benchmarkCount)
            center.deliverPending()
            benchmark.stopMeasurement()
            controls.checkShown(value)
        }
        scenario.measure(.floor) { @MainActor benchmark async in
            let controls = Controls.posting
            let floor = controls.floor
            let value = controls.nextValue()
            benchmark.startMeasurement()
            floor.post(value)
            benchmark.stopMeasurement()
            controls.checkShown(value)
        }
        scenario.measure(.notificationCenter) { @MainActor benchmark async in
            let controls = Controls.posting
            let notifications = controls.notifications
            let value = controls.nextValue()
            benchmark.startMeasurement()
            notifications.post(name: Controls.countChanged, object: nil, userInfo: ["count": value])
            benchmark.stopMeasurement()
            controls.checkShown(value)
        }
    }

    // MARK: 21 attach and detach one control beside 10,000

    // Each operation attaches one control, which shows the current value at once, and detaches it. The floor appends
    // a weak box, shows the value, and removes the box from the end, which no real detach can count on.
    do {
        let scenario = Scenario("21 attach and detach one control beside 10,000")
        scenario.measure(.serviceHive) { @MainActor benchmark async in
            let controls = Controls.attaching
            let center = controls.center
            let label = CountLabel()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try! center.attach(label, to: .benchmarkCount)
                center.detach(label)
            }
            benchmark.stopMeasurement()
        }
        scenario.measure(.floor) { @MainActor benchmark async in
            let controls = Controls.attaching
            let floor = controls.floor
            let label = CountLabel()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                floor.attach(label)
                floor.detachLast()
            }
            benchmark.stopMeasurement()
        }
        scenario.measure(.notificationCenter) { @MainActor benchmark async in
            let controls = Controls.attaching
            let notifications = controls.notifications
            let label = CountLabel()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let observer = Controls.observe(label, in: notifications)
                Controls.showCount(label, controls.lastValue, [:])
                notifications.removeObserver(observer)
            }
            benchmark.stopMeasurement()
        }
    }

    // MARK: 27 post to 1,000 keys, each observed or with one control

    // A center keeps one observed value per key, shared by every view that reads it, so a post updates one observed
    // value however many views read it. To compare 1,000 updates of observed values with 1,000 updates of controls,
    // each operation posts one value to each of 1,000 keys and delivers them: 27a's keys are each followed by their
    // observed value alone, 27b's by one control alone. Both pay the same 1,000 posts and lookups of the key. No view
    // tracks the observed values: what SwiftUI does after a change is SwiftUI's cost, as what UIKit does after a
    // control's update is UIKit's; the registrar that would tell SwiftUI is called all the same.
    do {
        let scenario = Scenario(
            "27a post to 1,000 keys, each read through its observed value",
            configuration: Configurations.perLongOperation)
        scenario.measure(.serviceHive) { @MainActor benchmark async in
            let keys = KeySet.observed
            let value = keys.nextValue()
            benchmark.startMeasurement()
            keys.postToEach(value)
            benchmark.stopMeasurement()
            keys.checkShown(value)
        }
    }
    do {
        let scenario = Scenario(
            "27b post to 1,000 keys, each with one control", configuration: Configurations.perLongOperation)
        scenario.measure(.serviceHive) { @MainActor benchmark async in
            let keys = KeySet.controlled
            let value = keys.nextValue()
            benchmark.startMeasurement()
            keys.postToEach(value)
            benchmark.stopMeasurement()
            keys.checkShown(value)
        }
    }
}

/// 1,000 keys of one center, each read through its observed value or shown by one control: scenario 27.
@MainActor
final class KeySet {
    static let observed = KeySet(observing: true)
    static let controlled = KeySet(observing: false)

    let keys = (0..<1_000).map { FunctionKey<CountLabel, Int>("benchmarks.count.\($0)") }
    let center: FunctionCenter
    /// The keys' observed values, when the keys are observed.
    private(set) var observed: [ObservedFunction<Int>] = []
    /// The controls, one per key, when the keys have controls.
    private(set) var labels: [CountLabel] = []
    private var lastValue = 0

    init(observing: Bool) {
        let hive = ServiceHive()
        for key in keys {
            try! hive.register(function: key) { _ in BusinessFunction(currentValue: { 0 }, update: Controls.showCount) }
        }
        center = FunctionCenter(hive: hive)
        if observing {
            observed = keys.map { try! center.observed($0) }
        } else {
            labels = keys.map { _ in CountLabel() }
            for (label, key) in zip(labels, keys) { try! center.attach(label, to: key) }
        }
    }

    /// A value different from the last one, so that every post changes every observed value and control.
    func nextValue() -> Int {
        lastValue += 1
        return lastValue
    }

    /// Posts `value` to each key, and delivers.
    func postToEach(_ value: Int) {
        for key in keys { center.post(value, to: key) }
        center.deliverPending()
    }

    /// Traps unless the first and the last key's observed value or control shows `value`.
    func checkShown(_ value: Int) {
        if observed.isEmpty {
            precondition(labels[0].count == value && labels[labels.count - 1].count == value)
        } else {
            precondition(observed[0].value == value && observed[observed.count - 1].value == value)
        }
    }
}

/// A control that shows a number, as a cart badge does.
@MainActor
final class CountLabel {
    var count = 0
}

extension FunctionKey where Control == CountLabel, Value == Int {
    /// The function the scenarios' controls show.
    static var benchmarkCount: Self { Self("benchmarks.count") }
}

/// The controls of the function scenarios, one set per scenario, each implementation's made on first use.
@MainActor
enum Controls {
    static let count = 10_000

    /// The update every implementation runs for each control.
    nonisolated static let showCount: @MainActor @Sendable (CountLabel, Int, [String: any Sendable]) -> Void = {
        label, count, _ in
        label.count = count
    }

    /// The notification `NotificationCenter`'s observers receive, with the value under `count` in `userInfo`.
    static let countChanged = Notification.Name("benchmarks.count")

    static let posting = ControlSet()
    static let attaching = ControlSet()

    /// Adds an observer that shows the posted count in `label`, held weakly, as an app would write it.
    static func observe(_ label: CountLabel, in notifications: NotificationCenter) -> any NSObjectProtocol {
        notifications.addObserver(forName: countChanged, object: nil, queue: nil) { [weak label] notification in
            guard let count = notification.userInfo?["count"] as? Int else { return }
            MainActor.assumeIsolated {
                guard let label else { return }
                showCount(label, count, [:])
            }
        }
    }
}

/// 10,000 live controls, and each implementation's way of reaching them.
@MainActor
final class ControlSet {
    /// The controls, held strongly here so that they stay live; every implementation holds them weakly.
    let labels = (0..<Controls.count).map { _ in CountLabel() }
    /// The last value made by `nextValue()`.
    private(set) var lastValue = 0

    /// A value different from the last one, so that every post changes every control.
    func nextValue() -> Int {
        lastValue += 1
        return lastValue
    }

    /// Traps unless the first and the last control show `value`: the post reached them all.
    func checkShown(_ value: Int) {
        precondition(labels[0].count == value && labels[labels.count - 1].count == value)
    }

    /// A center with every control attached, whose key has a value delivered.
    private(set) lazy var center: FunctionCenter = {
        let hive = ServiceHive()
        try! hive.register(function: .benchmarkCount) { _ in BusinessFunction(update: Controls.showCount) }
        let center = FunctionCenter(hive: hive)
        for label in labels { try! center.attach(label, to: .benchmarkCount) }
        center.post(nextValue(), to: .benchmarkCount)
        center.deliverPending()
        return center
    }()

    private(set) lazy var floor: WeakBoxFloor = {
        let floor = WeakBoxFloor()
        for label in labels { floor.attach(label) }
        return floor
    }()

    /// A notification center of its own with an observer for each control.
    private(set) lazy var notifications: NotificationCenter = {
        let notifications = NotificationCenter()
        for label in labels { observers.append(Controls.observe(label, in: notifications)) }
        return notifications
    }()
    private var observers: [any NSObjectProtocol] = []
}

/// The hand-written floor of posting: an array of weak boxes, and a loop that calls the update for each live one.
@MainActor
final class WeakBoxFloor {
    private var boxes: [WeakBox] = []
    private var latest = 0

    /// Adds a box for `label` and shows it the last value.
    func attach(_ label: CountLabel) {
        boxes.append(WeakBox(label))
        Controls.showCount(label, latest, [:])
    }

    /// Removes the box added last.
    func detachLast() {
        boxes.removeLast()
    }

    /// Shows `value` in every live control.
    func post(_ value: Int) {
        latest = value
        for box in boxes {
            if let label = box.label { Controls.showCount(label, value, [:]) }
        }
    }
}

@MainActor
final class WeakBox {
    weak var label: CountLabel?
    init(_ label: CountLabel) { self.label = label }
}
