import ServiceHive
import Testing

/// The ways users catch ServiceHive's errors, written as they write them. With typed throws in the public API, the
/// first of these crashed Swift 6.3's compiler ("Found ownership error?!", swiftlang/swift#89577); they must keep
/// compiling and passing.
@Suite("Catching ServiceHiveError", .timeLimit(.minutes(5)))
struct ErrorShapeTests {
    @Test("catch let error as ServiceHiveError, with two expectations inside")
    func castInCatch() throws {
        let hive = ServiceHive()
        do {
            _ = try hive.resolve(TradeService.self)
            Issue.record("expected notRegistered")
        } catch let error as ServiceHiveError {
            #expect(String(describing: error).contains("TradeService"))
            #expect(String(describing: error).hasSuffix("try hive.register(TradeService.self) { … }"))
        }
    }

    @Test("catch ServiceHiveError.notRegistered")
    func catchCase() {
        let hive = ServiceHive()
        var caught = false
        do {
            _ = try hive.resolve(TradeService.self)
        } catch ServiceHiveError.notRegistered {
            caught = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught)
    }

    @Test("catch let .notRegistered(key, chain), as a catch pattern and after a cast")
    func bindingPattern() {
        let hive = ServiceHive()
        do {
            _ = try hive.resolve(TradeService.self)
            Issue.record("expected notRegistered, but the resolve succeeded")
        } catch let ServiceHiveError.notRegistered(key, chain) {
            #expect(key == ServiceHive.ServiceKey(TradeService.self))
            #expect(chain.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
        do {
            _ = try hive.resolve(TradeService.self)
            Issue.record("expected notRegistered, but the resolve succeeded")
        } catch let error as ServiceHiveError {
            guard case let .notRegistered(key, chain) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(key.service == "TradeService" && chain.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("#expect(throws: ServiceHiveError.self)")
    func expectThrowsType() {
        let hive = ServiceHive()
        #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }
    }

    @Test("let e = #expect(throws: ServiceHiveError.self) { … }, then guard case .notRegistered = e")
    func expectThrowsAndInspect() throws {
        let hive = ServiceHive()
        let e = #expect(throws: ServiceHiveError.self) { try hive.resolve(TradeService.self) }
        guard case .notRegistered = e else {
            Issue.record("expected notRegistered, got \(String(describing: e))")
            return
        }
    }
}
