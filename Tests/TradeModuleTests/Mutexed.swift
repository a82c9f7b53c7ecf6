import Foundation

/// A value guarded by a lock, for the tests' recording doubles.
final class Mutexed<Value>: @unchecked Sendable {
    // Sendable: `value` is only read or written inside `lock`, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
