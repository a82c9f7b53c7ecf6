// Resolves on 1, 2, 4 and 8 plain threads released together, beside `direct` on as many threads, and prints a table
// of nanoseconds per operation per thread: the wall time from the common start until the last thread ended, divided
// by the operations each thread did. The threads of a race share a fixed number of operations equally. Each cell is
// the median of several runs (5 unless `--runs N` says otherwise), with the fastest and slowest; within a run,
// ServiceHive and `direct` run back to back at each thread count, so that both see about the same load. From the
// repository root:
//
//     swift run -c release --package-path Benchmarks ThreadScaling
//     swift run -c release --package-path Benchmarks ThreadScaling --runs 9
//     swift run -c release --package-path Benchmarks ThreadScaling --only "made, resolved"   # scenarios whose name has it

import Foundation

let threadCounts = [1, 2, 4, 8]

func runs(from arguments: [String]) -> Int {
    guard let index = arguments.firstIndex(of: "--runs") else { return 5 }
    guard index + 1 < arguments.count, let runs = Int(arguments[index + 1]), runs > 0 else {
        print("usage: ThreadScaling [--runs N], where N is a count of runs above 0")
        exit(64)
    }
    return runs
}

/// Nanoseconds per operation per thread.
func nanoseconds(_ duration: Duration, operations: Int) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(operations)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func cell(_ values: [Double]) -> String {
    let format = { (value: Double) in value < 10 ? String(format: "%.1f", value) : String(format: "%.0f", value) }
    return "\(format(median(values))) (\(format(values.min()!))–\(format(values.max()!)))"
}

/// A line on the standard error, so that a long run shows where it is.
func progress(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The text that `--only` gives, which the names of the scenarios to run contain; `nil` to run every one.
func only(from arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--only") else { return nil }
    guard index + 1 < arguments.count else {
        print("usage: ThreadScaling [--runs N] [--only TEXT], where TEXT is part of the names of the scenarios to run")
        exit(64)
    }
    return arguments[index + 1]
}

let runCount = runs(from: CommandLine.arguments)
let text = only(from: CommandLine.arguments)
let scenarios = ScalingScenario.all().filter { scenario in text.map { scenario.name.contains($0) } ?? true }
// [scenario][thread count] → the runs' ns per operation per thread.
var serviceHive = Array(repeating: Array(repeating: [Double](), count: threadCounts.count), count: scenarios.count)
var direct = serviceHive
for run in 1...runCount {
    for (s, scenario) in scenarios.enumerated() {
        for (t, threads) in threadCounts.enumerated() {
            let operations = scenario.operations / threads
            let hiveTime = ThreadRace.run(threads: threads, operations: operations, prepare: scenario.serviceHive)
            serviceHive[s][t].append(nanoseconds(hiveTime, operations: operations))
            let directTime = ThreadRace.run(threads: threads, operations: operations, prepare: scenario.direct)
            direct[s][t].append(nanoseconds(directTime, operations: operations))
            progress("run \(run), \(scenario.name), \(threads) threads: \(cell(serviceHive[s][t].suffix(1))) ns")
        }
    }
}

print("ns per operation per thread, median of \(runCount) runs (min–max)")
print()
print("| Scenario | threads | ServiceHive | direct | ServiceHive ÷ direct |")
print("| --- | ---: | ---: | ---: | ---: |")
for (s, scenario) in scenarios.enumerated() {
    for (t, threads) in threadCounts.enumerated() {
        let ratio = median(serviceHive[s][t]) / median(direct[s][t])
        print(
            "| \(scenario.name) | \(threads) | \(cell(serviceHive[s][t])) | \(cell(direct[s][t])) | "
                + String(format: "%.2f×", ratio) + " |")
    }
}
