#if !canImport(Darwin)
import Synchronization
#endif

/// How many of some activity, such as recording what a construction uses, are in progress on every thread and task.
///
/// A hot path reads it without a lock to skip a costlier check while nothing of the kind is in progress. An activity
/// is counted before it starts, so a thread or task always sees its own. On Apple platforms, where `Atomic` needs
/// macOS 15 and iOS 18, nothing is counted and ``mayBeActive`` is always `true`.
struct ActivityCount: ~Copyable, Sendable {
    #if !canImport(Darwin)
    private let count = Atomic<Int>(0)
    #endif

    init() {}

    /// Whether an activity may be in progress: `false` only when none is.
    @inline(__always)
    var mayBeActive: Bool {
        #if canImport(Darwin)
        true
        #else
        count.load(ordering: .relaxed) != 0
        #endif
    }

    /// Counts an activity that starts.
    func begin() {
        #if !canImport(Darwin)
        count.add(1, ordering: .relaxed)
        #endif
    }

    /// Counts an activity that has ended.
    func end() {
        #if !canImport(Darwin)
        count.subtract(1, ordering: .relaxed)
        #endif
    }
}
