import Foundation
import ServiceHive

/// Runs `body(index)` in `count` child tasks of the caller, each on a thread of its own instead of the cooperative
/// pool, and returns what each returned, in the order of the indexes.
///
/// For a test whose tasks must block: a task that resolves a slow singleton synchronously, or waits for a lock another
/// thread holds, blocks its thread, and on the cooperative pool, which has one thread per core, that thread is one the
/// tasks of every other test need. Here each task runs on a ``ThreadExecutor``, so it blocks only its own thread, yet
/// it is a child task: it inherits the caller's task-local values, and so the override scope it runs in, and the tasks
/// it makes with `async let` or a task group run on its thread too.
///
/// ```swift
/// let identities = try await hive.withOverrides { … } operation: {
///     try await inTasksOnThreads(8, "the racing tasks") { _ in ObjectIdentifier(try hive.resolve(TradeService.self)) }
/// }
/// ```
///
/// - Parameters:
///   - count: How many tasks, and threads.
///   - what: What the tasks do, for the message of a timeout.
///   - limit: How long to wait for the last task; past it, the wait throws and abandons the tasks and their threads.
///   - body: What each task runs, given its index.
/// - Returns: What each task returned, by index.
/// - Throws: The first error a task threw, once every task has ended; ``TimedOut`` when `limit` passed first.
@discardableResult
public func inTasksOnThreads<T: Sendable>(
    _ count: Int,
    _ what: String = "the tasks on threads",
    limit: Duration = waitLimit,
    _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
    precondition(count > 0, "inTasksOnThreads needs at least one task")
    let executors = (0..<count).map { ThreadExecutor(name: "\(what) \($0)") }
    defer { for executor in executors { executor.stop() } }
    return try await within("\(what) (\(count) tasks on threads) to finish", limit: limit) {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (index, executor) in executors.enumerated() {
                group.addTask(executorPreference: executor) { (index, try await body(index)) }
            }
            var results: [Int: T] = [:]
            for try await (index, result) in group { results[index] = result }
            return (0..<count).map { results[$0]! }  // every task returned, or the group threw
        }
    }
}

/// A task executor with a thread of its own, which runs the jobs given to it one at a time, in order.
///
/// A task that prefers it (`Task(executorPreference:)`, `group.addTask(executorPreference:)`) runs its code here, not
/// on the cooperative pool, so it may block. ``stop()`` ends the thread once the jobs given before it have run.
public final class ThreadExecutor: TaskExecutor {
    /// The jobs given and not yet run, and whether the executor was stopped; the semaphore counts the signals the
    /// thread has to take: one per job, and one for the stop.
    private let queue = Locked<(jobs: [UnownedJob], stopped: Bool)>(([], false))
    private let signals = DispatchSemaphore(value: 0)

    /// An executor whose thread is named `name`, started at once.
    public init(name: String) {
        // The thread holds the executor until it ends, after `stop()`: a job may refer to it until then.
        let thread = Thread { [self] in
            Self.run(queue: queue, signals: signals, executor: asUnownedTaskExecutor())
        }
        thread.name = name
        thread.start()
    }

    /// Runs the jobs as they come, until the executor is stopped and no job is left.
    private static func run(
        queue: Locked<(jobs: [UnownedJob], stopped: Bool)>, signals: DispatchSemaphore, executor: UnownedTaskExecutor
    ) {
        while true {
            signals.wait()
            let job = queue.withLock { queue -> UnownedJob?? in
                if !queue.jobs.isEmpty { return .some(queue.jobs.removeFirst()) }
                return queue.stopped ? .none : .some(nil)
            }
            guard let job else { return }  // stopped, and nothing left to run
            job?.runSynchronously(on: executor)
        }
    }

    /// Takes `job`, to run it on this executor's thread after the jobs before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        signals.signal()
    }

    /// Ends the thread once the jobs given so far have run. A job given afterwards still runs if the thread has not
    /// ended yet, and is never run otherwise: stop an executor only when no task prefers it any more.
    public func stop() {
        queue.withLock { $0.stopped = true }
        signals.signal()
    }
}
