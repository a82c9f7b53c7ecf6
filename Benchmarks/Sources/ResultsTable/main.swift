// Turns the text output of `swift package benchmark` into the README's results table and targets checklist.
//
//     swift package --package-path Benchmarks benchmark --no-progress > results.txt
//     swift run --package-path Benchmarks -c release ResultsTable results.txt "$(date +%F)"
//
// Every number comes from the run; nothing is typed in.

import Foundation

struct Measurement {
    var nanoseconds: Double?
    var mallocs: Double?
    var bytes: Double?
    /// Net allocations and bytes left by the measured region, for the memory scenarios.
    var retainedAllocations: Double?
    var retainedBytes: Double?
}

/// `value` scaled by the unit in a metric label: `(K)`, `(M)`, `(ns)`, `(μs)`, `(ms)`, `(s)`.
func scaled(_ value: Double, label: String) -> Double {
    let units: [(String, Double)] = [
        ("(K)", 1e3), ("(M)", 1e6), ("(G)", 1e9), ("(ns)", 1), ("(μs)", 1e3), ("(us)", 1e3), ("(ms)", 1e6),
        ("(s)", 1e9),
    ]
    return units.first { label.contains($0.0) }.map { value * $0.1 } ?? value
}

/// The scenario's title, without its number: "01 transient resolve" gives "transient resolve".
func title(_ scenario: String) -> Substring {
    scenario.drop { $0 != " " }.dropFirst()
}

/// The processor's model name, where the system says.
func processor() -> String? {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) }
}

/// The p50 column of every benchmark, by name.
func parse(_ text: String) -> (results: [String: Measurement], host: String) {
    var results: [String: Measurement] = [:]
    var host = ""
    var current: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasPrefix("Host ") {
            host = line.dropFirst("Host ".count).replacingOccurrences(of: ", running:", with: "")
                .replacingOccurrences(of: ", running", with: "")
        }
        if line.contains(" · "), !line.contains("│") {
            current = line.trimmingCharacters(in: .whitespaces)
            continue
        }
        guard let name = current, line.hasPrefix("│") else { continue }
        let cells = line.split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }
        // Metric, p0, p25, p50, …
        guard cells.count >= 4, let p50 = Double(cells[3]) else { continue }
        let label = cells[0]
        let value = scaled(p50, label: label)
        if label.hasPrefix("Time (wall clock)") { results[name, default: Measurement()].nanoseconds = value }
        if label.hasPrefix("Malloc (total)") { results[name, default: Measurement()].mallocs = value }
        if label.hasPrefix("Malloc (bytes total)") { results[name, default: Measurement()].bytes = value }
        if label.hasPrefix("Malloc / free Δ (bytes)") {
            results[name, default: Measurement()].retainedBytes = value
        } else if label.hasPrefix("Malloc / free Δ") {
            results[name, default: Measurement()].retainedAllocations = value
        }
    }
    return (results, host)
}

func time(_ nanoseconds: Double?) -> String {
    guard let nanoseconds else { return "–" }
    switch nanoseconds {
    case ..<10_000: return "\(Int(nanoseconds.rounded())) ns"
    case ..<1_000_000: return String(format: "%.1f µs", nanoseconds / 1e3)
    default: return String(format: "%.2f ms", nanoseconds / 1e6)
    }
}

func ratio(_ numerator: Double?, _ denominator: Double?, decimals: Int = 2) -> String {
    guard let numerator, let denominator, denominator > 0 else { return "–" }
    return String(format: "%.\(decimals)f×", numerator / denominator)
}

func count(_ value: Double?) -> String {
    guard let value else { return "–" }
    return value >= 1_000 ? String(format: "%.0fk", value / 1_000) : String(Int(value.rounded()))
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let text = try? String(contentsOfFile: arguments[1], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: ResultsTable RESULTS.txt [DATE]\n".utf8))
    exit(64)
}
let date = arguments.count >= 3 ? arguments[2] : "undated"
let (results, host) = parse(text)

// Scenarios in order, each with its implementations.
var scenarios: [String] = []
for name in results.keys.sorted() {
    let scenario = String(name.split(separator: " · ")[0])
    if !scenarios.contains(scenario) { scenarios.append(scenario) }
}

func result(_ scenario: String, _ implementation: String) -> Measurement? {
    results.first { $0.key.hasPrefix(scenario + " · ") && $0.key.hasSuffix(" · " + implementation) }?.value
        ?? results.first { $0.key.hasPrefix(scenario + " · " + implementation) }?.value
}

var lines: [String] = []
let machine = [host, processor()].compactMap { $0 }.joined(separator: ", ")
lines.append(
    "Medians (p50) from one run of `swift package --package-path Benchmarks benchmark` on \(machine), \(date).")
lines.append("Times are per operation; allocations are mallocs per operation (ServiceHive / Swinject / floor).")
lines.append("")
lines.append(
    "| Scenario | ServiceHive | Swinject | Floor | ServiceHive ÷ floor | Swinject ÷ ServiceHive | Allocations |")
lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for scenario in scenarios where result(scenario, "ServiceHive")?.nanoseconds != nil {
    let hive = result(scenario, "ServiceHive")
    let swinject = result(scenario, "Swinject")
    let floor = result(scenario, "floor")
    let allocations = [hive, swinject, floor].map { count($0?.mallocs) }.joined(separator: " / ")
    lines.append(
        "| \(title(scenario)) | \(time(hive?.nanoseconds)) | \(time(swinject?.nanoseconds)) "
            + "| \(time(floor?.nanoseconds)) | \(ratio(hive?.nanoseconds, floor?.nanoseconds)) "
            + "| \(ratio(swinject?.nanoseconds, hive?.nanoseconds, decimals: 1)) | \(allocations) |")
}

func nanoseconds(_ scenario: String, _ implementation: String) -> Double? {
    result(scenario, implementation)?.nanoseconds
}

func check(_ passed: Bool?, _ text: String) -> String {
    switch passed {
    case true?: return "- [x] \(text)"
    case false?: return "- [ ] \(text)"
    case nil: return "- [ ] \(text) (not measured)"
    }
}

func atMost(_ value: Double?, _ limit: Double) -> Bool? { value.map { $0 <= limit } }
func quotient(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b > 0 else { return nil }
    return a / b
}

let memory = scenarios.filter { result($0, "ServiceHive")?.retainedBytes != nil }
if !memory.isEmpty {
    lines.append("")
    lines.append("Memory a hive keeps, as the net bytes and allocations left by registering, or by resolving every")
    lines.append("registration once as a cached singleton (its instance is a 16-byte object):")
    lines.append("")
    lines.append("| Measured | Count | Bytes in all | Bytes each | Allocations each |")
    lines.append("| --- | ---: | ---: | ---: | ---: |")
    for scenario in memory {
        let text = String(title(scenario))
        let digits = text.split(separator: " ").first { $0.first?.isNumber == true }.map {
            $0.replacingOccurrences(of: ",", with: "")
        }
        guard let count = digits.flatMap(Double.init), let measured = result(scenario, "ServiceHive") else { continue }
        let bytes = measured.retainedBytes ?? 0
        let allocations = measured.retainedAllocations ?? 0
        lines.append(
            "| \(text.replacingOccurrences(of: "memory of ", with: "")) | \(Int(count)) "
                + "| \(String(format: "%.1f MB", bytes / 1e6)) | \(Int((bytes / count).rounded())) "
                + "| \(String(format: "%.1f", allocations / count)) |")
    }
}

lines.append("")
lines.append("Targets, checked against the same run:")
lines.append("")
let transientFloor = quotient(
    nanoseconds("01 transient resolve", "ServiceHive"), nanoseconds("01 transient resolve", "floor"))
let singletonFloor = quotient(
    nanoseconds("02 singleton resolve", "ServiceHive"), nanoseconds("02 singleton resolve", "floor"))
lines.append(
    check(atMost(transientFloor, 1.5), "transient resolve within 1.5× of the floor: \(ratio(transientFloor, 1))"))
lines.append(
    check(atMost(singletonFloor, 1.5), "singleton resolve within 1.5× of the floor: \(ratio(singletonFloor, 1))"))
for scenario in scenarios where !["09", "11", "12", "13"].contains(String(scenario.prefix(2))) {
    guard let speedup = quotient(nanoseconds(scenario, "Swinject"), nanoseconds(scenario, "ServiceHive")) else {
        continue
    }
    let floorSpeedup = quotient(nanoseconds(scenario, "Swinject"), nanoseconds(scenario, "floor"))
    let floorNote = floorSpeedup.map { String(format: "; the floor itself is %.1f× faster than Swinject", $0) } ?? ""
    lines.append(
        check(
            speedup >= 30,
            "at least 30× faster than Swinject, \(title(scenario)): \(ratio(speedup, 1, decimals: 1))\(floorNote)"))
}
let large = quotient(
    nanoseconds("07b singleton among 10,000 registrations", "ServiceHive"),
    nanoseconds("07a singleton among 10 registrations", "ServiceHive"))
lines.append(
    check(atMost(large, 1.2), "a singleton among 10,000 registrations within 1.2× of among 10: \(ratio(large, 1))"))
let scopedTransient = quotient(
    nanoseconds("08a overridden transient inside a scope", "ServiceHive"),
    nanoseconds("01 transient resolve", "ServiceHive"))
let scopedSingleton = quotient(
    nanoseconds("08b singleton inside a scope", "ServiceHive"), nanoseconds("02 singleton resolve", "ServiceHive"))
lines.append(
    check(
        atMost(scopedTransient, 2),
        "a transient inside an override scope within 2× of outside: \(ratio(scopedTransient, 1))"))
lines.append(
    check(
        atMost(scopedSingleton, 2),
        "a singleton inside an override scope within 2× of outside: \(ratio(scopedSingleton, 1))"))
let singletonMallocs = result("02 singleton resolve", "ServiceHive")?.mallocs
let transientMallocs = result("01 transient resolve", "ServiceHive")?.mallocs
let floorTransientMallocs = result("01 transient resolve", "floor")?.mallocs
lines.append(
    check(singletonMallocs.map { $0 == 0 }, "zero allocations for a singleton resolve: \(count(singletonMallocs))"))
lines.append(
    check(
        transientMallocs.flatMap { mine in floorTransientMallocs.map { mine == $0 } },
        "a transient allocates only its instance: \(count(transientMallocs)), as the floor's \(count(floorTransientMallocs))"
    ))

print(lines.joined(separator: "\n"))
