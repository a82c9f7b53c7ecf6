#if ServiceLifecycle
/// What the test modules and services do, line by line, in order, for a test to read as it happens.
///
/// Writers yield to an `AsyncStream`, which any task may do. One test reads it, from one task at a time; a read that
/// is waiting ends when its task is cancelled, so a timeout can give up on it.
final class Journal: Sendable {
    private let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (lines, continuation) = AsyncStream.makeStream(of: String.self)
    }

    /// Adds a line.
    func write(_ line: String) {
        continuation.yield(line)
    }

    /// The next `count` lines, waiting for them as they come; fewer only if the journal ended or the task was
    /// cancelled.
    func next(_ count: Int) async -> [String] {
        var read: [String] = []
        guard count > 0 else { return read }
        for await line in lines {
            read.append(line)
            if read.count == count { break }
        }
        return read
    }

    /// Ends the journal and returns the lines not read yet. Call it once nothing writes any more.
    func rest() async -> [String] {
        continuation.finish()
        var read: [String] = []
        for await line in lines {
            read.append(line)
        }
        return read
    }
}
#endif
