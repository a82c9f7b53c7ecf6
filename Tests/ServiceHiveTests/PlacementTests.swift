import Testing

@testable import ServiceHive

// The placement rule, asked directly: where an instance lives, for each lifetime, under no override layer and under
// the layers a test declares. The override and validation suites check the same from outside.

private protocol Meter: AnyObject, Sendable { var reading: Int { get } }
private final class LiveMeter: Meter, Sendable {
    let reading: Int
    init(_ reading: Int) { self.reading = reading }
}
private protocol Gauge: AnyObject, Sendable { var meter: any Meter { get } }
private final class LiveGauge: Gauge, Sendable {
    let meter: any Meter
    init(meter: any Meter) { self.meter = meter }
}
private protocol Ticker: Sendable {}
private struct LiveTicker: Ticker {}

@Suite("Where an instance lives: the placement rule", .timeLimit(.minutes(1)))
struct PlacementTests {
    /// What the rule answers, as a string to compare: `nowhere`, `graph`, `registry`, or `layer N` for the layer at
    /// depth N.
    private func describe(_ placement: Placement) -> String {
        switch placement {
        case .nowhere: "nowhere"
        case .graph: "graph"
        case .registry: "registry"
        case .layer(let layer): "layer \(layer.depth)"
        }
    }

    /// The current task's innermost override layer.
    private var stack: OverrideLayer? { OverrideLayer.bound.innermost }

    /// What the cached instance of `Service` in `hive` was built from.
    private func dependencies<Service>(of _: Service.Type, in hive: ServiceHive) throws -> Dependencies {
        let instance = hive.core.family.withLock { state in
            state.hives[hive.id.index].registry.peek(RegistrationKey(Service.self, name: nil))?.instance
                .map { $0.takeUnretainedValue() }
        }
        return try #require(instance, "a cached instance of \(Service.self)").dependencies
    }

    @Test(
        "outside any layer: a transient nowhere, a .graph instance in its graph, everything else beside its registration"
    )
    func outsideLayers() {
        let hive = ServiceHive()
        let core = hive.core
        #expect(describe(core.placement(of: .instance(.transient), under: nil)) == "nowhere")
        #expect(describe(core.placement(of: .instance(.graph), under: nil)) == "graph")
        #expect(describe(core.placement(of: .instance(.shared), under: nil)) == "registry")
        #expect(describe(core.placement(of: .instance(.weak), under: nil)) == "registry")
        #expect(describe(core.placement(of: .instance(.forward), under: nil)) == "registry")
        #expect(describe(core.placement(of: .collection, under: nil)) == "registry")
    }

    @Test("under a layer: a forward and a collection nowhere, a .graph instance under that layer")
    func underLayers() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        let answers = try hive.withOverrides {
            $0.register((any Ticker).self) { LiveTicker() }
        } operation: {
            let stack = try #require(stack)
            guard case .graph(let layers) = hive.core.placement(of: .instance(.graph), under: stack) else {
                return ["not a graph"]
            }
            return [
                describe(hive.core.placement(of: .instance(.transient), under: stack)),
                describe(hive.core.placement(of: .instance(.forward), under: stack)),
                describe(hive.core.placement(of: .collection, under: stack)),
                layers == ObjectIdentifier(stack) ? "graph under the layer" : "graph under another",
            ]
        }
        #expect(answers == ["nowhere", "nowhere", "nowhere", "graph under the layer"])
    }

    @Test("a shared instance lives in the layer that declared it, or overrides what it was built from, else beside it")
    func sharedInstances() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        try hive.register((any Gauge).self, scope: .singleton) { r in LiveGauge(meter: try r.resolve()) }
        try hive.register((any Ticker).self, scope: .singleton) { LiveTicker() }
        _ = try hive.resolve((any Gauge).self)
        _ = try hive.resolve((any Ticker).self)
        let gauge = try dependencies(of: (any Gauge).self, in: hive)
        let clock = try dependencies(of: (any Ticker).self, in: hive)
        let answers = try hive.withOverrides {
            $0.register((any Meter).self, scope: .singleton) { LiveMeter(2) }
        } operation: {
            let outer = try #require(stack)
            return try hive.withOverrides {
                $0.register((any Ticker).self, scope: .singleton) { LiveTicker() }
            } operation: {
                let inner = try #require(stack)
                return [
                    // Built from the meter, which the outer layer overrides: the outer layer's.
                    describe(hive.core.placement(of: .instance(.shared), builtFrom: gauge, under: inner)),
                    describe(hive.core.placement(of: .instance(.weak), builtFrom: gauge, under: inner)),
                    // Built from nothing overridden: beside its registration, shared with the world outside.
                    describe(hive.core.placement(of: .instance(.shared), builtFrom: clock, under: inner)),
                    // Declared by the outer layer, and about to be built: there.
                    describe(hive.core.placement(of: .instance(.shared), declaredAt: outer.depth, under: inner)),
                    // The outer stack alone, for the gauge.
                    describe(hive.core.placement(of: .instance(.shared), builtFrom: gauge, under: outer)),
                ]
            }
        }
        #expect(answers == ["layer 0", "layer 0", "registry", "layer 0", "layer 0"])
    }

    @Test("what is built while validating lives in the validation's sandbox, and stays there")
    func sandbox() throws {
        let hive = ServiceHive()
        try hive.register((any Ticker).self, scope: .singleton) { LiveTicker() }
        try hive.register((any Meter).self, scope: .singleton) { r in
            // Asked while the validation builds the meter: the rule, under the sandbox it runs in. Through the
            // resolver, since a factory that kept its hive would keep it alive.
            let stack = OverrideLayer.bound.innermost
            let answer = r.core.placement(of: .instance(.shared), under: stack)
            Self.seen.withLock { $0.append(stack.map { _ in describe(answer) } ?? "no layer") }
            return LiveMeter(1)
        }
        Self.seen.withLock { $0.removeAll() }
        #expect(hive.validate().isValid)
        #expect(Self.seen.withLock { $0 } == ["layer 0"])
        // The callers placed it there too: the hive's first resolve builds its own.
        _ = try hive.resolve((any Meter).self)
        #expect(Self.seen.withLock { $0 } == ["layer 0", "no layer"])
    }

    @Test("an override's singleton built while validating inside its scope lives in the sandbox, not in the scope")
    func overrideUnderSandbox() throws {
        let hive = ServiceHive()
        try hive.register((any Meter).self, scope: .singleton) { LiveMeter(1) }
        let built = Locked(0)
        let (valid, readings) = try hive.withOverrides {
            $0.register((any Meter).self, scope: .singleton) {
                LiveMeter(
                    built.withLock { count in
                        count += 1
                        return 10 + count
                    })
            }
        } operation: {
            let valid = hive.validate().isValid
            // The scope's own resolves build the override's instance afresh, once, and share it.
            return (valid, [try hive.resolve((any Meter).self).reading, try hive.resolve((any Meter).self).reading])
        }
        #expect(valid)
        #expect(readings == [12, 12], "the validation built 11 in its sandbox; the scope built 12 and kept it")
        #expect(try hive.resolve((any Meter).self).reading == 1)
    }

    private static let seen = Locked<[String]>([])
}
