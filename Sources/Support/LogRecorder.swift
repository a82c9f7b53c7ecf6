#if Hummingbird || Vapor
// Only with a server trait: swift-log is a dependency of the server adapters only.
import Logging
import ServiceHive

/// The messages a logger received, for tests that check what goes to the server's log.
public final class LogRecorder: Sendable {
    public struct Record: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    public init() {}

    private let records = Locked<[Record]>([])

    /// A logger that records here, at every level.
    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything recorded so far.
    public var all: [Record] { records.withLock { $0 } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let record = Record(
                level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            recorder.records.withLock { $0.append(record) }
        }
    }
}
#endif
