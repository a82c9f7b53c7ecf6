import Foundation

/// A value and the lock that guards it: the module's one place of shared mutable state.
final class Protected<Value>: @unchecked Sendable {
    // Sendable: `value` is only read or written inside `lock`, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
