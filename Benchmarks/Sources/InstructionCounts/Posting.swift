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
