/// The handlers of a hive family's diagnostics.
struct Diagnostics: Sendable {
    var trace: (@Sendable (ServiceHive.Trace) -> Void)?
    var failure: (@Sendable (ServiceHiveError) -> Void)?

    var isEmpty: Bool { trace == nil && failure == nil }
}
