// Turns the text output of one `swift package benchmark` run into the results block of `Benchmarks/README.md`
// (`Benchmarks/update-results` runs it):
//
//     swift package --package-path Benchmarks benchmark --no-progress > results.txt
//     swift run --package-path Benchmarks -c release ResultsTable results.txt 2026-11-25 c8b0c93
//
// The date of the run and the commit it measured are optional, and are said above the table.
// Every number comes from the run; nothing is typed in. Every scenario of the run gets a row by itself; what is
// checked against it is declared in the tables just below.

import Foundation

// MARK: - What is reported and checked

/// The library under test, and the baseline each of its times is divided by.
let subject = "ServiceHive"
let baseline = "direct"

/// The implementations' columns, in this order. An implementation that a run has and this list doesn't gets a column
/// after these.
let columnOrder = ["ServiceHive", "direct", "floor", "swift-dependencies", "Swinject", "NotificationCenter"]

/// The targets, checked against the same run, by what they are about. A scenario is named by its number, the
/// first word of its name, so that retitling it keeps its target. A target whose scenario is missing from the run is
/// listed as not measured.
let targetGroups: [TargetGroup] = [
    TargetGroup(
        "Resolving and registering, in the same run:",
        [
            Target(
                statement: "resolving a transient inside an override costs at most 2× the same resolve outside",
                .ratio(Figure("08a", subject), to: Figure("01", subject)), atMost: 2),
            Target(
                statement: "resolving a singleton inside an override costs at most 2× the same resolve outside",
                .ratio(Figure("08b", subject), to: Figure("02", subject)), atMost: 2),
            Target("registration", .nanoseconds(Figure("09", subject)), atMost: 250, unit: " ns each"),
            Target(
                statement: "resolving a collection of 10 cached singletons costs at most what 10 cached singleton "
                    + "resolves (02) do",
                .ratio(Figure("28", subject), to: Figure("02", subject)), atMost: 10),
        ]),
    TargetGroup(
        "Components, in the same run:",
        [
            Target(
                "a call by name of a cached component's synchronous command",
                .ratio(Figure("22", subject), to: Figure("22", "floor")), atMost: 2),
            Target(
                "the same call through a typed `Command`", .ratio(Figure("23", subject), to: Figure("22", subject)),
                atMost: 3, unit: "× the call by name"),
            Target("`open(_:)` of a typical URL", .nanoseconds(Figure("24", subject)), below: 3_000),
        ]),
    TargetGroup(
        "Business functions, in the same run:",
        [
            Target(
                "posting one value to 10,000 live controls", .ratio(Figure("20", subject), to: Figure("20", "floor")),
                atMost: 2, unit: "× the loop over weak boxes")
        ]),
    TargetGroup(
        "Capabilities, as ratios to the plain singleton resolve of scenario 02 in the same run:",
        [
            ("15", "a forwarded singleton resolve", 1.5), ("16", "a `Lazy` after first use", 1.5),
            ("17a", "an `@Injected` read", 1.5), ("17b", "a `@LazyInjected` read after first use", 1.5),
            ("18", "an async singleton's `resolveAsync`", 1.5), ("19a", "a resolve with the trace turned off", 1.1),
            ("19b", "a resolve while another hive traces", 1.1),
        ].map { number, label, limit in
            Target(label, .ratio(Figure(number, subject), to: Figure("02", subject)), atMost: limit, unit: "× 02")
        }),
    TargetGroup(
        "A singleton built from an override, resolved again inside it, as ratios to the plain singleton resolve of "
            + "scenario 02 in the same run:",
        [
            ("08c", "an override registered as a `.singleton`"),
            ("08d", "a `.singleton` built from an overridden service"),
            ("08f", "the same, after it was resolved and cached outside the override"),
        ].map { number, label in
            Target(label, .ratio(Figure(number, subject), to: Figure("02", subject)), atMost: 2.5, unit: "× 02")
        }),
    TargetGroup(
        "Removing registrations, in the same run:",
        [
            Target("unregistering 16,000 named variants", .nanoseconds(Figure("25b", subject)), below: 250_000_000),
            Target(
                statement: "unregistering 16,000 named variants takes at most 5× what 4,000 take (linear is 4×)",
                .ratio(Figure("25b", subject), to: Figure("25a", subject)), atMost: 5),
        ]),
]

/// Figures reported with no limit: said under the targets.
let reported: [Reported] = [
    Reported("a child hive per request, with one resolve from it", .nanoseconds(Figure("12", subject))),
    Reported(
        "`NotificationCenter` with 10,000 observers ÷ ServiceHive, posting one value",
        .ratio(Figure("20", "NotificationCenter"), to: Figure("20", subject))),
    Reported("attaching and detaching one control beside 10,000", .nanoseconds(Figure("21", subject))),
    Reported(
        "a named resolve among 1,000 names ÷ the named resolve of 04",
        .ratio(Figure("04b", subject), to: Figure("04", subject))),
    Reported(
        "a singleton inside three nested overrides ÷ inside one (08b)",
        .ratio(Figure("08e", subject), to: Figure("08b", subject))),
    Reported(
        "rolling back an install of 10,000 registrations (26b − 26a)",
        .difference(Figure("26b", subject), minus: Figure("26a", subject))),
    Reported(
        "a resolve with the trace on and a handler that does nothing ÷ the plain resolve of 02",
        .ratio(Figure("19c", subject), to: Figure("02", subject))),
]

/// Said under the table: what the run leaves out, and why.
let notMeasured = ["Factory 3.2.1 is not in this machine's package mirror, so this run does not measure it."]

// MARK: - Targets

/// One implementation's median in one scenario, the scenario named by its number.
struct Figure {
    var scenario: String
    var implementation: String
    init(_ scenario: String, _ implementation: String) {
        self.scenario = scenario
        self.implementation = implementation
    }
}

/// A group of targets, under a line that says what they are measured against.
struct TargetGroup {
    var heading: String
    var targets: [Target]
    init(_ heading: String, _ targets: [Target]) {
        self.heading = heading
        self.targets = targets
    }
}

/// A limit on one quantity of the run.
struct Target {
    enum Quantity {
        /// One median divided by another.
        case ratio(Figure, to: Figure)
        /// A median, in nanoseconds.
        case nanoseconds(Figure)
        /// One median minus another, in nanoseconds.
        case difference(Figure, minus: Figure)
    }

    /// What is promised, as the checklist says it: "singleton ≤ 1.5× direct".
    var statement: String
    var quantity: Quantity
    var limit: Double
    /// Whether the quantity must be below the limit, rather than at most the limit.
    var strictly = false

    /// A target stated as "label ≤ limit unit". A ratio's unit is, by default, "× " and the divisor's
    /// implementation; a time's, " ns".
    init(_ label: String, _ quantity: Quantity, atMost limit: Double, unit: String? = nil) {
        let defaultUnit: String
        switch quantity {
        case .ratio(_, let divisor): defaultUnit = "× \(divisor.implementation)"
        case .nanoseconds, .difference: defaultUnit = " ns"
        }
        let statement = "\(label) ≤ \(String(format: "%g", limit))\(unit ?? defaultUnit)"
        self.init(statement: statement, quantity, atMost: limit)
    }

    /// A target stated as "label < limit": a time below `limit` nanoseconds, said in the largest unit it fills.
    init(_ label: String, _ quantity: Quantity, below limit: Double) {
        let units: [(String, Double)] = [("s", 1e9), ("ms", 1e6), ("µs", 1e3)]
        let (unit, scale) = units.first { limit >= $0.1 } ?? ("ns", 1)
        self.init(statement: "\(label) < \(String(format: "%g", limit / scale)) \(unit)", quantity, atMost: limit)
        strictly = true
    }

    /// A target whose statement, written out, already says its limit.
    init(statement: String, _ quantity: Quantity, atMost limit: Double) {
        self.statement = statement
        self.quantity = quantity
        self.limit = limit
    }

    func isMet(by value: Double) -> Bool {
        strictly ? value < limit : value <= limit
    }
}

/// A figure reported with no limit.
struct Reported {
    var label: String
    var quantity: Target.Quantity
    init(_ label: String, _ quantity: Target.Quantity) {
        self.label = label
        self.quantity = quantity
    }
}

// MARK: - Parsing

struct Measurement {
    var nanoseconds: Double?
    var mallocs: Double?
    /// Net allocations and bytes left by the measured region, for the memory scenarios.
    var retainedAllocations: Double?
    var retainedBytes: Double?
}

/// The benchmarks of one run: each benchmark's medians by "scenario · implementation", and the host's description.
struct Run {
    var results: [String: Measurement] = [:]
    var host = ""

    /// Reads the p50 column of every benchmark in package-benchmark's text output.
    init(parsing text: String) {
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
            record(scaled(p50, label: cells[0]), label: cells[0], for: name)
        }
    }

    private mutating func record(_ value: Double, label: String, for name: String) {
        if label.hasPrefix("Time (wall clock)") { results[name, default: Measurement()].nanoseconds = value }
        if label.hasPrefix("Malloc (total)") { results[name, default: Measurement()].mallocs = value }
        if label.hasPrefix("Malloc / free Δ (bytes)") {
            results[name, default: Measurement()].retainedBytes = value
        } else if label.hasPrefix("Malloc / free Δ") {
            results[name, default: Measurement()].retainedAllocations = value
        }
    }

    /// The scenarios, in order of their numbers.
    var scenarios: [String] {
        Set(results.keys.map { String($0.components(separatedBy: " · ")[0]) }).sorted()
    }

    /// The implementations, in `columnOrder` and then by name.
    var implementations: [String] {
        let all = Set(results.keys.compactMap { $0.components(separatedBy: " · ").last })
        return columnOrder.filter(all.contains) + all.subtracting(columnOrder).sorted()
    }

    /// The scenario whose number is `number`: "02" finds "02 singleton resolve".
    func scenario(numbered number: String) -> String? {
        scenarios.first { $0.split(separator: " ").first.map(String.init) == number }
    }

    func measurement(_ scenario: String, _ implementation: String) -> Measurement? {
        results["\(scenario) · \(implementation)"]
    }

    func nanoseconds(_ figure: Figure) -> Double? {
        scenario(numbered: figure.scenario).flatMap { measurement($0, figure.implementation)?.nanoseconds }
    }

    func value(of quantity: Target.Quantity) -> Double? {
        switch quantity {
        case .ratio(let numerator, let denominator): quotient(nanoseconds(numerator), nanoseconds(denominator))
        case .nanoseconds(let figure): nanoseconds(figure)
        case .difference(let minuend, let subtrahend):
            nanoseconds(minuend).flatMap { a in nanoseconds(subtrahend).map { a - $0 } }
        }
    }
}

/// `value` scaled by the unit in a metric label: `(K)`, `(M)`, `(ns)`, `(μs)`, `(ms)`, `(s)`.
func scaled(_ value: Double, label: String) -> Double {
    let units: [(String, Double)] = [
        ("(K)", 1e3), ("(M)", 1e6), ("(G)", 1e9), ("(ns)", 1), ("(μs)", 1e3), ("(us)", 1e3), ("(ms)", 1e6),
        ("(s)", 1e9),
    ]
    return units.first { label.contains($0.0) }.map { value * $0.1 } ?? value
}

// MARK: - Formatting

func quotient(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b > 0 else { return nil }
    return a / b
}

/// An integer with thousands separators: 12,345.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, digit) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0, digit != "-" { result.append(",") }
        result.append(digit)
    }
    return String(result.reversed())
}

func time(_ nanoseconds: Double?) -> String {
    guard let nanoseconds else { return "–" }
    switch nanoseconds {
    case ..<100_000: return "\(grouped(nanoseconds)) ns"
    case ..<1_000_000: return String(format: "%.1f µs", nanoseconds / 1e3)
    case ..<1_000_000_000: return String(format: "%.2f ms", nanoseconds / 1e6)
    default: return String(format: "%.2f s", nanoseconds / 1e9)
    }
}

func ratio(_ value: Double?) -> String {
    guard let value else { return "–" }
    return value < 10 ? String(format: "%.2f×", value) : String(format: "%.1f×", value)
}

func count(_ value: Double?) -> String {
    guard let value else { return "–" }
    return value >= 10_000 ? String(format: "%.0fk", value / 1_000) : grouped(value)
}

/// The scenario's title, without its number: "01 transient resolve" gives "transient resolve".
func title(_ scenario: String) -> String {
    String(scenario.drop { $0 != " " }.dropFirst())
}

/// The processor's model name, where the system says.
func processor() -> String? {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) }
}

/// Where and when the run was made, of which commit, and whether it was a smoke pass.
func provenance(_ run: Run, date: String, commit: String?) -> String {
    let machine = [run.host, processor()].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    let smoke =
        ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil
        ? " This was a short smoke pass (`BENCHMARK_SMOKE=1`), too short to quote." : ""
    let revision = commit.map { ", commit \($0)" } ?? ""
    return "Medians (p50) from one run of `swift package --package-path Benchmarks benchmark` on \(machine), "
        + "\(date)\(revision)." + smoke
}

// MARK: - The results block

func resultsBlock(_ run: Run, date: String, commit: String?) -> [String] {
    var lines = [provenance(run, date: date, commit: commit)]
    lines.append(
        "Times are per operation, as each scenario says: per resolve, per registration, per pair of concurrent "
            + "resolves, per request, per post, per call, or for one whole operation: a validation, unregistering "
            + "thousands of variants, an install. **\(baseline)** is the same work with no locator: calling "
            + "the initializer, reading a `static let`, building from stored singletons, calling the object or "
            + "updating the controls. The **floor** is the least hand-written code that does the same job: a "
            + "pthread mutex around a dictionary for a resolve or a call by name, a loop over an array of weak boxes "
            + "for a post. A dash: no equivalent.")
    lines.append("")
    lines += resultsTable(run)
    let memory = memoryTable(run)
    if !memory.isEmpty {
        lines.append("")
        lines += memory
    }
    for group in targetGroups {
        lines.append("")
        lines.append(group.heading)
        lines.append("")
        lines += group.targets.map { check($0, in: run) }
    }
    if !reported.isEmpty {
        lines.append("")
        lines.append("Reported, with no target:")
        lines.append("")
        lines += reported.map { figure in
            "- \(figure.label): \(format(run.value(of: figure.quantity), figure.quantity))"
        }
    }
    if !notMeasured.isEmpty {
        lines.append("")
        lines += notMeasured
    }
    return lines
}

func resultsTable(_ run: Run) -> [String] {
    let implementations = run.implementations
    let ratioHeader = "\(subject) ÷ \(baseline)"
    var header = ["Scenario"]
    for implementation in implementations {
        header.append(implementation)
        if implementation == baseline { header.append(ratioHeader) }
    }
    header.append("Allocations, \(subject) / \(baseline)")
    var lines = [row(header), row(header.indices.map { $0 == 0 ? "---" : "---:" })]
    let timed = run.scenarios.filter { scenario in
        implementations.contains { run.measurement(scenario, $0)?.nanoseconds != nil }
    }
    for scenario in timed {
        let mine = run.measurement(scenario, subject)
        let direct = run.measurement(scenario, baseline)
        var cells = [title(scenario)]
        for implementation in implementations {
            cells.append(time(run.measurement(scenario, implementation)?.nanoseconds))
            if implementation == baseline { cells.append(ratio(quotient(mine?.nanoseconds, direct?.nanoseconds))) }
        }
        cells.append("\(count(mine?.mallocs)) / \(count(direct?.mallocs))")
        lines.append(row(cells))
    }
    return lines
}

func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
}

/// The memory scenarios: their titles hold the count, as in "memory of 10,000 registrations".
func memoryTable(_ run: Run) -> [String] {
    let scenarios = run.scenarios.filter { run.measurement($0, subject)?.retainedBytes != nil }
    guard !scenarios.isEmpty else { return [] }
    var lines = [
        "Memory a hive keeps, as the net bytes and allocations left by registering, or by resolving every",
        "registration once as a cached singleton (its instance is a 16-byte object):",
        "",
        row(["Measured", "Count", "Bytes in all", "Bytes each", "Allocations each"]),
        row(["---", "---:", "---:", "---:", "---:"]),
    ]
    for scenario in scenarios {
        let text = title(scenario)
        let digits = text.split(separator: " ").first { $0.first?.isNumber == true }
        guard let count = digits.flatMap({ Double($0.replacingOccurrences(of: ",", with: "")) }),
            let measured = run.measurement(scenario, subject)
        else { continue }
        let bytes = measured.retainedBytes ?? 0
        let allocations = measured.retainedAllocations ?? 0
        lines.append(
            row([
                text.replacingOccurrences(of: "memory of ", with: ""), grouped(count),
                String(format: "%.1f MB", bytes / 1e6), grouped(bytes / count),
                String(format: "%.1f", allocations / count),
            ]))
    }
    return lines
}

func check(_ target: Target, in run: Run) -> String {
    guard let value = run.value(of: target.quantity) else {
        return "- [ ] \(target.statement): not measured in this run"
    }
    let met = target.isMet(by: value)
    return "- [\(met ? "x" : " ")] \(target.statement): \(format(value, target.quantity)), \(met ? "met" : "not met")"
}

/// A quantity's value as a ratio or a time, or "not measured in this run".
func format(_ value: Double?, _ quantity: Target.Quantity) -> String {
    guard let value else { return "not measured in this run" }
    switch quantity {
    case .ratio: return ratio(value)
    case .nanoseconds, .difference: return time(value)
    }
}

// MARK: - Main

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: ResultsTable RESULTS.txt [DATE [COMMIT]]\n".utf8))
    exit(64)
}
let date = arguments.count >= 2 ? arguments[1] : "undated"
let commit = arguments.count >= 3 ? arguments[2] : nil
let run = Run(parsing: text)
guard !run.results.isEmpty else {
    FileHandle.standardError.write(Data("ResultsTable: no benchmark results in \(path)\n".utf8))
    exit(65)
}
print(resultsBlock(run, date: date, commit: commit).joined(separator: "\n"))
