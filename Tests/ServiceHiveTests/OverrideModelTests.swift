import Foundation
import ServiceHive
import Support
import Testing

/// A node of a random service graph: which service built it, from which values, and a unique instance number.
final class GraphNode: Sendable {
    let value: String
    let instance: Int

    init(value: String, instance: Int) {
        self.value = value
        self.instance = instance
    }
}

/// A random graph of services spread over two independent hives, each service a transient or a singleton whose
/// factory resolves some earlier services, in either hive, through its resolver or directly.
struct RandomServiceGraph {
    struct Service {
        let index: Int
        let hive: Int
        let isSingleton: Bool
        let dependencies: [Int]
        let direct: Bool
    }

    let services: [Service]
    let hives: [ServiceHive]
    private let instances = Locked(0)

    init(random: inout SplitMix, count: Int) {
        hives = [ServiceHive(), ServiceHive()]
        var services: [Service] = []
        for index in 0..<count {
            let dependencies = (0..<index).filter { _ in random.next() % 4 == 0 }.suffix(3)
            services.append(
                Service(
                    index: index, hive: Int(random.next() % 2), isSingleton: random.next() % 2 == 0,
                    dependencies: Array(dependencies), direct: random.next() % 2 == 0))
        }
        self.services = services
    }

    /// Registers every service.
    func register() throws {
        for service in services {
            let hives = hives
            let instances = instances
            let graph = services
            try hives[service.hive].register(
                GraphNode.self, name: "s\(service.index)", scope: service.isSingleton ? .singleton : .transient
            ) { r in
                let values = try service.dependencies.map { index in
                    let dependency = graph[index]
                    let node: GraphNode =
                        dependency.hive == service.hive && !service.direct
                        ? try r.resolve(GraphNode.self, name: "s\(index)")
                        : try hives[dependency.hive].resolve(GraphNode.self, name: "s\(index)")
                    return node.value
                }
                return GraphNode(
                    value: "s\(service.index)(\(values.joined(separator: ",")))", instance: instances.increment())
            }
        }
    }

    func resolve(_ index: Int) throws -> GraphNode {
        try hives[services[index].hive].resolve(GraphNode.self, name: "s\(index)")
    }

    /// The value service `index` has when `overridden` services answer `M<index>`.
    func expectedValue(_ index: Int, overridden: Set<Int>) -> String {
        if overridden.contains(index) { return "M\(index)" }
        let values = services[index].dependencies.map { expectedValue($0, overridden: overridden) }
        return "s\(index)(\(values.joined(separator: ",")))"
    }

    /// Whether service `index` was built, directly or through any chain, from one of `overridden`.
    func uses(_ index: Int, anyOf overridden: Set<Int>) -> Bool {
        overridden.contains(index) || services[index].dependencies.contains { uses($0, anyOf: overridden) }
    }
}

@Suite("A randomized model test of the override rule", .timeLimit(.minutes(5)))
struct OverrideModelTests {
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["SERVICEHIVE_MODEL_SEED"].flatMap { UInt64($0) } ?? 0x0E11
    static let rounds = ProcessInfo.processInfo.environment["SERVICEHIVE_MODEL_STEPS"].flatMap { Int($0) } ?? 60

    @Test("random graphs across two hives, random overrides: nothing leaks, nothing is rebuilt needlessly")
    func randomGraphsAndOverrides() throws {
        var random = SplitMix(seed: Self.seed)
        var failures: [String] = []
        var scopes = 0  // the override scopes checked: a seed that draws none would check nothing inside one
        for round in 0..<Self.rounds {
            let graph = RandomServiceGraph(random: &random, count: 12)
            try graph.register()
            // The factories capture the hives that keep them: removing every registration breaks the cycle.
            defer { graph.hives.forEach { $0.removeAll() } }
            var seen: [Int: Int] = [:]  // singleton index → its instance outside any overrides
            func checkOutside(_ context: String) throws {
                for service in graph.services where random.next() % 2 == 0 {
                    let node = try graph.resolve(service.index)
                    if node.value != graph.expectedValue(service.index, overridden: []) {
                        failures.append("round \(round), \(context): s\(service.index) is \(node.value): a leak")
                    }
                    guard service.isSingleton else { continue }
                    if let instance = seen[service.index], instance != node.instance {
                        failures.append("round \(round), \(context): singleton s\(service.index) changed outside")
                    }
                    seen[service.index] = node.instance
                }
            }
            try checkOutside("before")
            for _ in 0..<3 {
                let overridden = Set((0..<graph.services.count).filter { _ in random.next() % 5 == 0 }.prefix(2))
                guard let first = overridden.first else { continue }
                let hive = graph.services[first].hive
                // One `withOverrides` overrides services of one hive; the others of the set stay real.
                let here = overridden.filter { graph.services[$0].hive == hive }
                scopes += 1
                try graph.hives[hive].withOverrides { overrides in
                    for index in here {
                        overrides.register(GraphNode.self, name: "s\(index)") {
                            GraphNode(value: "M\(index)", instance: -index)
                        }
                    }
                } operation: {
                    var local: [Int: Int] = [:]
                    for service in graph.services.shuffled(using: &random) {
                        let node = try graph.resolve(service.index)
                        let expected = graph.expectedValue(service.index, overridden: here)
                        if node.value != expected {
                            failures.append(
                                "round \(round): inside, s\(service.index) is \(node.value), not \(expected)")
                        }
                        guard service.isSingleton, !here.contains(service.index) else { continue }
                        if graph.uses(service.index, anyOf: here) {
                            if node.instance == seen[service.index] {
                                failures.append("round \(round): s\(service.index) uses an override but is shared")
                            }
                            if let instance = local[service.index], instance != node.instance {
                                failures.append("round \(round): local s\(service.index) is not shared inside")
                            }
                            local[service.index] = node.instance
                        } else if let instance = seen[service.index], instance != node.instance {
                            failures.append("round \(round): s\(service.index) was rebuilt needlessly")
                        } else {
                            seen[service.index] = node.instance  // first built inside, for the world
                        }
                    }
                }
                try checkOutside("after overrides of \(here.sorted())")
            }
        }
        #expect(failures.isEmpty, "seed \(Self.seed) (rerun with SERVICEHIVE_MODEL_SEED): \(failures.prefix(8))")
        #expect(scopes >= Self.rounds, "seed \(Self.seed) drew only \(scopes) override scopes in \(Self.rounds) rounds")
    }
}
