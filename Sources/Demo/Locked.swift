import Foundation

/// A value and the lock that guards it.
final class Locked<Value>: @unchecked Sendable {
    // Sendable: `value` is only read or written inside `lock`, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
