import Foundation

/// A value and the lock that guards it, for state that the tests and the Demo share across threads.
public final class Locked<Value>: @unchecked Sendable {
    // Sendable: `value` is read and written only inside `withLock`, with `lock` held.
    private let lock = NSLock()
    private var value: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The current value.
    public var current: Value { withLock { $0 } }
}

extension Locked where Value == Int {
    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }
}
