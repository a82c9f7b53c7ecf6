#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceHive
import ServiceHiveHummingbird
import Support
import Testing

@Suite("Components over HTTP: hostile input", .timeLimit(.minutes(5)))
struct RouterFuzzTests {
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
        var requests: [(method: HTTPRequest.Method, uri: String, body: String?)] = []
        for round in 0..<3_000 {
            let text = paths.next()
            let afterScheme = text.range(of: "://").map { String(text[$0.upperBound...]) } ?? text
            // The router test client takes any text as the request's target, as a lenient server might pass it on.
            let uri = "/api/" + afterScheme
            requests.append(round % 3 == 0 ? (.post, uri, bodies.next()) : (.get, uri, nil))
        }
        let app = shopApplication(try shopHive(), logs: LogRecorder())
        let hostile = requests
        let outcome = try await app.test(.router) { client in
            var failures: [String] = []
            var answered: [Int: Int] = [:]
            for request in hostile {
                let response = try await client.execute(
                    uri: request.uri, method: request.method, headers: [.contentType: "application/json"],
                    body: request.body.map { ByteBuffer(string: $0) })
                answered[response.status.code / 100, default: 0] += 1
                if response.status.code != 200, !(400..<500).contains(response.status.code) {
                    failures.append(
                        "\(response.status.code) for \(request.method) \(request.uri) \(request.body ?? "")")
                }
            }
            return (failures, answered)
        }
        #expect(outcome.0.isEmpty, "seed \(Self.seed): \(outcome.0.prefix(5))")
        #expect(outcome.1[2, default: 0] > 0, "seed \(Self.seed): some mutated requests still succeed")
        #expect(outcome.1[4, default: 0] > 1_000, "seed \(Self.seed): most are refused")
    }

    /// Valid requests of the shop, to repeat a key of: a query, and a body with its query.
    static let valid = [
        "shop/order?item=hive-42&quantity=2&gift=true", "shop/echo?text=caf%C3%A9&n=3",
        "shop/ship?item=a&speed=express",
    ]
    static let validBodies = [
        (path: "shop/order?gift=true", body: #"{"item":"hive-42","quantity":2,"lines":[{"item":1}]}"#),
        (path: "shop/echo", body: #"{"text":"x","n":3}"#),
        (path: "shop/ship", body: #"{"item":"hive-42","speed":"standard"}"#),
    ]

    @Test("fuzz: a key repeated in the query, in the body, or in both, answers 400 naming the key and where")
    func repeatedKeys() async throws {
        var fuzzer = Fuzzer(seed: Self.seed, samples: ["-"])
        var random = SplitMix(seed: Self.seed)
        var requests: [(method: HTTPRequest.Method, uri: String, body: String?, expected: String)] = []
        func refusal(_ key: String, _ place: String) -> String {
            #"{"error":{"argument":"\#(key)","message":"The key '\#(key)' appears \#(place)."}}"#
        }
        for round in 0..<600 {
            switch round % 3 {
            case 0:
                let sample = Self.valid[Int(random.next() % UInt64(Self.valid.count))]
                let made = fuzzer.repeatingKey(in: "shop://" + sample)
                let repeated = try #require(made)
                let target = repeated.text.dropFirst("shop://".count)
                requests.append((.get, "/api/\(target)", nil, refusal(repeated.key, "more than once in the query")))
            case 1:
                let sample = Self.validBodies[Int(random.next() % UInt64(Self.validBodies.count))]
                let made = fuzzer.repeatingKey(in: sample.body)
                let repeated = try #require(made)
                requests.append(
                    (
                        .post, "/api/\(sample.path)", repeated.text,
                        refusal(repeated.key, "more than once in the JSON body")
                    ))
            default:
                // A key of the body, given in the query too, sometimes percent-encoded.
                let sample = Self.validBodies[Int(random.next() % UInt64(Self.validBodies.count))]
                let picked = fuzzer.repeatingKey(in: sample.body)
                let key = try #require(picked).key
                let made = fuzzer.repeatingKey(in: "shop://x/y?\(key)=1")
                let item = try #require(made?.text.split(separator: "&").last)
                let separator = sample.path.contains("?") ? "&" : "?"
                requests.append(
                    (
                        .post, "/api/\(sample.path)\(separator)\(item)", sample.body,
                        refusal(key, "in both the query and the JSON body")
                    ))
            }
        }
        let app = shopApplication(try shopHive(), logs: LogRecorder())
        let sent = requests
        let mismatches = try await app.test(.router) { client in
            var mismatches: [String] = []
            for request in sent {
                let response = try await client.execute(
                    uri: request.uri, method: request.method, headers: [.contentType: "application/json"],
                    body: request.body.map { ByteBuffer(string: $0) })
                let answer = text(of: response)
                if response.status != .badRequest || answer != request.expected {
                    mismatches.append("\(request.method) \(request.uri) \(request.body ?? ""): \(answer)")
                }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "seed \(Self.seed): \(mismatches.prefix(5))")
    }
}
#endif
