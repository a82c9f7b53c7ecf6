import Foundation
import ServiceHive
import Support
import Testing

/// The bounded waits every test relies on: they must end at their limit, whatever they wait for, and report what
/// the threads saw without recording anything on a thread.
@Suite("Bounded waits", .timeLimit(.minutes(5)))
struct WaitingTests {
    @Test("within gives up at its limit on an operation that ignores cancellation, and names what it waited for")
    func withinAbandons() async throws {
        // Not opened until the wait has given up: the operation waits for it on a thread of its own, past any
        // cancellation. Its own limit is ten minutes, so that only a timer late by that much could let it end first:
        // with a limit of 5 s, the ASan suite beside a CPU hog once saw the operation end before the 0.2 s timer fired
        // (`Scripts/flake-hunt`, 1 run of 20).
        let gate = Gate()
        let thrown = await #expect(throws: TimedOut.self) {
            try await within("a gate nobody opens", limit: .milliseconds(200)) {
                try await onThreads(1, limit: .seconds(600)) { _ in gate.wait(limit: .seconds(600)) }
            }
        }
        #expect(thrown?.description == "Waited 0.2 seconds for a gate nobody opens, in vain")
        gate.open()  // Lets the abandoned thread end.
    }

    @Test("within returns what its operation returns, and throws what it throws")
    func withinPassesThrough() async throws {
        #expect(try await within("a value") { 42 } == 42)
        await #expect(throws: Refused.self) { try await within("a failure") { throw Refused() } }
    }

    // Which job the cooperative pool runs first is the executor's choice, which a test can't force without blocking
    // the pool's threads, and so the tests of every other suite: the jobs would have to hold the threads while the wait
    // is queued. What running ahead rests on is the priority, which the executor serves first: that is checked, from the
    // test's task, which runs below it, for the operation and for the tasks it makes. (Not from a task of low priority:
    // on a loaded pool, that one would wait behind every test's jobs.)
    @Test("what within waits for runs at high priority, above its caller's, and so do the child tasks it makes")
    func withinRunsAhead() async throws {
        let caller = Task.currentPriority
        #expect(caller.rawValue < TaskPriority.high.rawValue, "the test's task runs below high: \(caller)")
        let inside = try await within("a wait from the test's task") { () async -> [TaskPriority] in
            async let child = Task.currentPriority
            let grouped = await withTaskGroup(of: TaskPriority.self) { group in
                group.addTask { Task.currentPriority }
                return await group.next()!  // one task added
            }
            return [Task.currentPriority, await child, grouped]
        }
        #expect(inside.count == 3)
        #expect(
            inside.allSatisfy { $0.rawValue >= TaskPriority.high.rawValue },
            "the operation, an async let and a group's task: \(inside)")
    }

    @Test("onThreads returns what each thread returned, by index, from threads that run at the same time")
    func onThreadsJoins() async throws {
        let arrived = Locked(0)
        let results = try await onThreads(4) { index in
            arrived.increment()
            // Each thread sees all four started: they start together, and none waits for the test's task.
            let deadline = ContinuousClock.now + waitLimit
            while arrived.current < 4, ContinuousClock.now < deadline { pause(milliseconds: 1) }
            return (index, arrived.current)
        }
        #expect(results.map(\.0) == [0, 1, 2, 3])
        #expect(results.map(\.1) == [4, 4, 4, 4])
    }

    @Test("inTasksOnThreads runs child tasks that may all block at once, each on its thread, with the task locals")
    func tasksOnThreads() async throws {
        let arrived = Locked(0)
        let everyone = Gate()
        let results = try await Bound.$label.withValue("bound") {
            try await inTasksOnThreads(8, "tasks that wait for each other") { index in
                // A blocking wait for all eight: on the cooperative pool, which has a thread per core, the first
                // tasks would hold its threads and the last ones never start.
                if arrived.increment() == 8 { everyone.open() }
                let all = everyone.wait()
                async let child = Bound.label
                return (index, all, await child)
            }
        }
        #expect(results.map { $0.0 } == Array(0..<8))
        #expect(results.allSatisfy { $0.1 }, "all eight were blocked at once")
        #expect(results.allSatisfy { $0.2 == "bound" }, "the caller's task-local values reach a child's child")
    }

    @Test("onThreads throws the error of the lowest thread that threw, once every thread has ended")
    func onThreadsThrows() async throws {
        let ended = Locked(0)
        let thrown = await #expect(throws: Refused.self) {
            try await onThreads(3) { index in
                defer { ended.increment() }
                if index > 0 { throw Refused(index: index) }
            }
        }
        #expect(thrown?.index == 1)
        #expect(ended.current == 3)
    }

    @Test("a gate holds threads and tasks until it opens, and a wait for a closed gate ends at its limit")
    func gate() async throws {
        let gate = Gate()
        #expect(!gate.wait(limit: .milliseconds(50)))
        await #expect(throws: TimedOut.self) { try await gate.opened("the gate", limit: .milliseconds(50)) }
        async let opened = onThreads(2) { _ in gate.wait() }
        gate.open()
        gate.open()  // again: nothing
        #expect(try await opened == [true, true])
        try await gate.opened("the open gate")
    }

    @Test("eventually returns once its condition holds, and throws at its limit when it never does")
    func eventuallyWaits() async throws {
        let count = Locked(0)
        try await eventually("the count to reach 3") { count.increment() >= 3 }
        await #expect(throws: TimedOut.self) {
            try await eventually("nothing", limit: .milliseconds(50)) { false }
        }
    }

    @Test("a program that runs past its limit is killed, and the wait throws")
    func programPastItsLimit() async throws {
        let (termination, output) = try await runProgram("/bin/sh", arguments: ["-c", "echo hello; exit 3"])
        #expect(termination == .exited(3))
        #expect(output == "hello\n")
        let thrown = await #expect(throws: TimedOut.self) {
            try await runProgram("/bin/sleep", arguments: ["30"], limit: .milliseconds(200))
        }
        #expect(thrown?.what == "sleep to end")
    }

    @Test("a program that isn't there fails to run, naming it")
    func missingProgram() async throws {
        let thrown = await #expect(throws: SpawnFailed.self) { try await runProgram("/nonexistent/program") }
        #expect(thrown?.description == "could not run /nonexistent/program: error \(ENOENT)")
    }
}

/// A task-local value, to see it inherited.
private enum Bound {
    @TaskLocal static var label = "unbound"
}

private struct Refused: Error {
    var index = 0
}
