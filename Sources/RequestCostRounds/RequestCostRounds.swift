// The rounds that VaporRequestHiveCost and HummingbirdRequestHiveCost run, and what they print.
import Foundation

/// Runs the variants `names` in rounds and prints, for each, the median over the rounds of the time a request took and
/// of what it added to `baseline` within each round.
///
/// A round runs a block of `BLOCK` (2,000) requests of each variant in turn, 50 times, so that the load of a shared
/// machine falls on all alike; there are `ROUNDS` (20) rounds.
///
/// - Parameters:
///   - names: The variants, in the order to run and print them; `baseline` among them.
///   - baseline: The variant the others are compared with.
///   - time: The nanoseconds that the given number of requests of the named variant took.
public func runRequestCostRounds(
    _ names: [String], baseline: String = "plain", time: (String, Int) async throws -> UInt64
) async rethrows {
    let environment = ProcessInfo.processInfo.environment
    let rounds = Int(environment["ROUNDS"] ?? "") ?? 20
    let block = Int(environment["BLOCK"] ?? "") ?? 2_000
    var perRequest: [String: [Double]] = [:]
    var added: [String: [Double]] = [:]
    for _ in 0..<rounds {
        var total: [String: UInt64] = [:]
        for _ in 0..<50 {
            for name in names { total[name, default: 0] += try await time(name, block) }
        }
        let round = total.mapValues { Double($0) / Double(50 * block) }
        for name in names {
            perRequest[name, default: []].append(round[name]!)
            added[name, default: []].append(round[name]! - round[baseline]!)
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("median of \(rounds) rounds of \(50 * block) requests each:")
    for name in names {
        let extra = name == baseline ? "" : String(format: ", adds %.2f µs", median(added[name]!) / 1000)
        print(String(format: "%@: %.2f µs a request%@", name, median(perRequest[name]!) / 1000, extra))
    }
}
