#if ServiceLifecycle
import Logging

extension Logger {
    /// A logger that drops every message, for the service groups of the tests.
    static let quiet = Logger(label: "ServiceHiveLifecycleTests") { _ in SwiftLogNoOpLogHandler() }
}
#endif
