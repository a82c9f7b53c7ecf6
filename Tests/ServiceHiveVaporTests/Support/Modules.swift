#if Vapor
import ServiceHive
import Support

/// The calls the test modules receive, in order.
final class Journal: Sendable {
    private let lines = Locked<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// The service a ``JournalModule`` registers.
struct Marker: Sendable {
    let module: String
}

/// What a module that fails to start throws.
struct StartFailure: Error, CustomStringConvertible {
    var description: String { "the database is offline" }
}

/// A module that writes each call to a journal, registers a `Marker` under its name, and starts or fails as told.
struct JournalModule: ServiceModule {
    let name: String
    let journal: Journal
    var fails = false
    /// A registration that needs a `String` nobody registers, which a validation finds.
    var broken = false

    func register(in hive: ServiceHive) throws {
        journal.write("register \(name)")
        try hive.register(Marker.self, name: name) { Marker(module: name) }
        if broken { try hive.register(Int.self, name: name) { r in try r.resolve(String.self).count } }
    }

    func start(in hive: ServiceHive) async throws {
        journal.write("start \(name)")
        if fails { throw StartFailure() }
    }

    func stop(in hive: ServiceHive) async {
        journal.write("stop \(name)")
    }
}
#endif
