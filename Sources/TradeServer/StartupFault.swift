#if Hummingbird
import ServiceHive

/// A fault that makes the server's startup fail, for the tests that check how a refused startup ends: the
/// `TRADE_SERVER_FAULT` environment variable names one, and TradeServer reads it for nothing else.
///
/// ```sh
/// TRADE_SERVER_FAULT=start swift run --traits Hummingbird TradeServer   # logs why, and exits with status 1
/// ```
enum StartupFault: String, CaseIterable, Sendable {
    /// A module whose registration fails: it registers one service twice.
    case install
    /// A module that registers a service whose factory needs one nobody registers, so validation fails.
    case validation
    /// A module whose start throws.
    case start

    /// The environment variable that names the fault.
    static let variable = "TRADE_SERVER_FAULT"

    /// The fault that `value`, the variable's value, names; `nil` for none.
    ///
    /// - Throws: ``UnknownStartupFault`` when `value` names no fault.
    static func named(_ value: String?) throws -> StartupFault? {
        guard let value, !value.isEmpty else { return nil }
        guard let fault = StartupFault(rawValue: value) else { throw UnknownStartupFault(value: value) }
        return fault
    }

    /// The module that brings the fault.
    var module: any ServiceModule { FaultyModule(fault: self) }
}

/// The error of a `TRADE_SERVER_FAULT` that names no fault.
struct UnknownStartupFault: Error, CustomStringConvertible {
    let value: String

    var description: String {
        let faults = StartupFault.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(StartupFault.variable) is '\(ServiceHive.printable(value, limit: 40))', which names no fault. "
            + "To fix, set it to one of \(faults), or unset it."
    }
}

/// The module of a ``StartupFault``, installed after TradeModule.
struct FaultyModule: ServiceModule {
    let fault: StartupFault

    var name: String { "Faulty" }
    var priority: Int { 0 }

    func register(in hive: ServiceHive) throws {
        switch fault {
        case .install:
            try hive.register(PricingProbe.self) { PricingProbe() }
            try hive.register(PricingProbe.self) { PricingProbe() }
        case .validation:
            try hive.register(PricingProbe.self) { r in
                _ = try r.resolve(Unregistered.self)
                return PricingProbe()
            }
        case .start:
            break
        }
    }

    func start(in hive: ServiceHive) async throws {
        if fault == .start { throw FaultInjected() }
    }
}

/// A service of the faulty module.
struct PricingProbe: Sendable {}

/// A service nobody registers.
struct Unregistered: Sendable {}

/// What the faulty module's start throws.
struct FaultInjected: Error, CustomStringConvertible {
    var description: String { "the fault that \(StartupFault.variable)=start asks for" }
}
#endif
