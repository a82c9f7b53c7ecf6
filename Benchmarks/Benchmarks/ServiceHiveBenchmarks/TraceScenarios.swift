import Benchmark
import ServiceHive

// Issue 14's trace: "when off, it costs one predictable branch". Scenario 02 is the plain resolve with the trace off
// by default. These resolve the same cached singleton from hives with the same registrations:
//
// - 19a from a hive whose trace was set and then removed: off again, it must cost what 02 costs;
// - 19b from the standard hive while another hive of the process traces every resolve: a trace belongs to one hive
//   family, so the other hive's must cost this one nothing;
// - 19c from a hive whose trace is on, with a handler that does nothing: the price of turning it on, every resolve
//   timed and its tree built.
//
// Each is 02's single lookup plus the trace check, so a ratio to 02 near 1 is the branch and nothing else.

func traceScenarios() {
    do {
        let scenario = Scenario("19a singleton resolve, trace turned off")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.traceTurnedOff
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
    }
    do {
        let scenario = Scenario("19b singleton resolve while another hive traces")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            precondition(Hives.traced.trace != nil)
            let hive = Hives.standard
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
    }
    do {
        let scenario = Scenario("19c singleton resolve, trace on with a handler that does nothing")
        scenario.measure(.direct) { benchmark in
            repeatedly(benchmark) { Direct.singleton }
        }
        scenario.measure(.serviceHive) { benchmark in
            let hive = Hives.traced
            repeatedly(benchmark) { try! hive.resolve(Singleton.self) }
        }
    }
}
