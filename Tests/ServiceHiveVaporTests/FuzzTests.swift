#if Vapor
import Foundation
import ServiceHive
import ServiceHiveVapor
import Support
import Testing
import Vapor
import VaporTesting

@Suite("Vapor: components over HTTP with hostile input", .timeLimit(.minutes(5)))
struct FuzzTests {
    /// A fixed seed keeps CI repeatable; try others with `SERVICEHIVE_URL_FUZZ_SEED=42 swift test --filter Fuzz`.
    static let seed = UInt64(ProcessInfo.processInfo.environment["SERVICEHIVE_URL_FUZZ_SEED"] ?? "") ?? 0x5EED_CAFE

    /// The inputs every adapter's fuzz test mutates.
    static let samples = HTTPFuzzInputs.urls
    static let bodies = HTTPFuzzInputs.bodies
    static let bodyPieces = HTTPFuzzInputs.bodyPieces

    @Test("fuzz: hostile paths, queries and bodies never trap, and answer 200 or 4xx, never 5xx")
    func fuzz() async throws {
        var paths = Fuzzer(seed: Self.seed, samples: Self.samples, repeatingKeys: true)
        var bodies = Fuzzer(seed: Self.seed &+ 1, samples: Self.bodies, pieces: Self.bodyPieces, repeatingKeys: true)
        var requests: [(method: HTTPMethod, uri: String, body: String?)] = []
        for round in 0..<3_000 {
            let text = paths.next()
            let afterScheme = text.range(of: "://").map { String(text[$0.upperBound...]) } ?? text
            requests.append(
                round % 3 == 0 ? (.POST, "/api/" + afterScheme, bodies.next()) : (.GET, "/api/" + afterScheme, nil))
        }
        let sent = requests
        let outcome = try await withShop { app in
            var failures: [String] = []
            var answered: [Int: Int] = [:]
            for request in sent {
                let answer = try await send(
                    app, request.method, request.uri, contentType: "application/json", body: request.body)
                answered[answer.status / 100, default: 0] += 1
                if answer.status != 200, !(400..<500).contains(answer.status) {
                    failures.append("\(answer.status) for \(request.method) \(request.uri) \(request.body ?? "")")
                }
            }
            return (failures, answered)
        }
        #expect(outcome.0.isEmpty, "seed \(Self.seed): \(outcome.0.prefix(5))")
        #expect(outcome.1[2, default: 0] > 0, "seed \(Self.seed): some mutated requests still succeed")
        #expect(outcome.1[4, default: 0] > 1_000, "seed \(Self.seed): most are refused")
    }
}
#endif
