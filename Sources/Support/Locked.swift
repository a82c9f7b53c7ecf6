import ServiceHive

// The tests and the Demo share state across threads through the package's one lock type, ServiceHive's `Locked`.
// These are their conveniences.

extension Locked where State: Sendable {
    /// The current value.
    package var current: State { withLock { $0 } }
}

extension Locked where State == Int {
    /// Adds one and returns the new count.
    @discardableResult
    package func increment() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }
}
