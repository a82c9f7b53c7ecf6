#if Hummingbird
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceHive
import Support
import Testing

@Suite("Components over HTTP: the rules every adapter shares", .timeLimit(.minutes(5)))
struct SharedRulesTests {
    @Test("every request of the shared table answers the status and body the table gives")
    func table() async throws {
        let app = shopApplication(try shopHive(), logs: LogRecorder())
        let mismatches = try await app.test(.router) { client in
            var mismatches: [String] = []
            for rule in httpRuleCases {
                var headers: HTTPFields = [:]
                if let type = rule.contentType { headers[.contentType] = type }
                let response = try await client.execute(
                    uri: rule.target, method: HTTPRequest.Method(rule.method)!, headers: headers,
                    body: rule.body.map { ByteBuffer(string: $0) })
                let body = text(of: response)
                if response.status.code != rule.status || (rule.answer.map { $0 != body } ?? false) {
                    mismatches.append("\(rule): answered \(response.status.code) \(body.prefix(300))")
                }
            }
            return mismatches
        }
        #expect(httpRuleCases.count > 30)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
#endif
