import ServiceHive
import ServiceHiveFunctions

@MainActor final class CountLabel { var count = 0 }
@MainActor final class WeakBox { weak var label: CountLabel?; init(_ l: CountLabel) { label = l } }
let showCount: @MainActor @Sendable (CountLabel, Int, [String: any Sendable]) -> Void = { l, c, _ in l.count = c }
extension FunctionKey where Control == CountLabel, Value == Int {
    static var benchmarkCount: Self { Self("benchmarks.count") }
}

@MainActor func posting(_ what: String, _ n: Int) {
    let labels = (0..<10_000).map { _ in CountLabel() }
    if what.hasSuffix("floor") {
        var boxes = labels.map { WeakBox($0) }
        if what == "20-floor" {
            for v in 0..<n { for b in boxes { if let l = b.label { showCount(l, v, [:]) } } }
        } else {
            let extra = CountLabel()
            for v in 0..<n { boxes.append(WeakBox(extra)); showCount(extra, v, [:]); boxes.removeLast() }
        }
        sink(boxes)
    } else {
        let hive = ServiceHive()
        try! hive.register(function: .benchmarkCount) { _ in BusinessFunction(update: showCount) }
        let center = FunctionCenter(hive: hive)
        for l in labels { try! center.attach(l, to: .benchmarkCount) }
        center.post(1, to: .benchmarkCount); center.deliverPending()
        if what == "20" {
            for v in 0..<n { center.post(v, to: .benchmarkCount); center.deliverPending() }
        } else {
            let extra = CountLabel()
            for _ in 0..<n { try! center.attach(extra, to: .benchmarkCount); center.detach(extra) }
        }
        sink(center)
    }
    sink(labels)
}

/// 27a and 27b: one value posted to each of 1,000 keys, and delivered, each key followed by its observed value alone
/// (27a) or by one control alone (27b). The center keeps one observed value per key, which every reader shares, so a
/// post updates one; 1,000 keys give 1,000 updates to compare with 1,000 controls'.
@MainActor func postingToKeys(_ what: String, _ n: Int) {
    let keys = (0..<1_000).map { FunctionKey<CountLabel, Int>("benchmarks.count.\($0)") }
    let hive = ServiceHive()
    for key in keys {
        try! hive.register(function: key) { _ in BusinessFunction(currentValue: { 0 }, update: showCount) }
    }
    let center = FunctionCenter(hive: hive)
    let labels = keys.map { _ in CountLabel() }
    let observed = what == "27a" ? keys.map { try! center.observed($0) } : []
    if what == "27b" { for (label, key) in zip(labels, keys) { try! center.attach(label, to: key) } }
    for v in 1..<(n + 1) {
        for key in keys { center.post(v, to: key) }
        center.deliverPending()
    }
    precondition(n == 0 || (what == "27a" ? observed[999].value == n : labels[999].count == n))
    sink(center); sink(labels); sink(observed)
}
