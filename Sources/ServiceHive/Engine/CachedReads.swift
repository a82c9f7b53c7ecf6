// Cached reads without the lock: a resolve whose thread has already found the instance cached asks its own thread's
// answers, checks them against the stamps of the hives it searches, and copies the value, taking no lock and writing
// nothing another thread writes. A writer that removes an instance waits, before it lets the instance go, for the
// readers that may still be copying it. ARCHITECTURE.md ("Cached reads") states the invariants.

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

// MARK: - What a reader checks

/// What a resolve reads of one hive's registry without the lock: a stamp that changes whenever an answer cached for
/// the registry may no longer hold, and the services the registry has ever registered, as `ServiceMask` bits.
///
/// One per place in `HiveFamily.hives`, kept by its `Registry`; a hive that takes a released hive's place takes its
/// reads too, whose stamp its release changed.
final class HiveReads: Sendable {
    /// Changed, with the family lock held, by every change to the registry that can make a kept answer wrong: a
    /// registration added or removed, a cached instance dropped or replaced, an override layer or a trace that starts
    /// in the family. Stamps are unique in the process, so a kept answer can't match a later registry at the same
    /// address.
    private let stamp = Atomic<UInt64>(HiveReads.nextStamp())
    /// The bits of every service registered here since the place was made; never cleared. A resolve from a child hive
    /// uses an answer found in an ancestor only while the bit of its service is clear in each nearer hive.
    private let services = Atomic<UInt64>(0)
    /// Whether a thread may have kept an answer that points into this registry; set with the family lock held. While
    /// `false`, a change lets go of what it removes without waiting for readers.
    private let isAnswered = Atomic<Bool>(false)

    private static let stamps = Atomic<UInt64>(0)
    private static func nextStamp() -> UInt64 { stamps.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The current stamp, as a reader sees it: sequentially consistent, after the reader's `ReaderRecord.enter()`.
    var current: UInt64 { stamp.load(ordering: .sequentiallyConsistent) }

    /// Whether this registry may register `service` (a clear bit says it never has).
    func mayRegister(_ service: ObjectIdentifier) -> Bool {
        services.load(ordering: .sequentiallyConsistent) & ServiceMask.bit(of: service) != 0
    }

    /// Invalidates every answer kept for this registry; for a change that lets nothing go.
    func change() { stamp.store(Self.nextStamp(), ordering: .sequentiallyConsistent) }

    /// Invalidates every kept answer, then waits until no reader can still be copying a value it read before: for a
    /// change that lets an instance go, which the caller releases after this returns.
    func changeLettingGo() {
        change()
        if isAnswered.load(ordering: .relaxed) { ReaderRecord.waitForReaders() }
    }

    /// Notes a registration of `service`, before it is stored.
    func registers(_ service: ObjectIdentifier) {
        services.bitwiseOr(ServiceMask.bit(of: service), ordering: .sequentiallyConsistent)
        change()
    }

    /// The stamp an answer kept now carries; with the family lock held.
    func stampForAnswer() -> UInt64 {
        isAnswered.store(true, ordering: .relaxed)
        return stamp.load(ordering: .relaxed)
    }
}

// MARK: - Readers

/// One thread's announcement that it is reading: its `sequence` is odd from `enter()` to `leave()`. Only its thread
/// writes it; a writer reads every record, in `waitForReaders()`, only when it lets an instance go.
///
/// Records are never freed: a thread that exits returns its record for a later thread to use.
final class ReaderRecord: Sendable {
    private let sequence = Atomic<UInt64>(0)

    /// Every record, and those free for a new thread. Taken only by a thread's first resolve, its exit, and a writer
    /// waiting for readers, inside the family lock; nothing is locked while it is held.
    private static let records = Locked<(all: [ReaderRecord], free: [ReaderRecord])>(([], []))

    /// A record for the calling thread.
    static func acquire() -> ReaderRecord {
        records.withLock { records in
            if let record = records.free.popLast() { return record }
            let record = ReaderRecord()
            records.all.append(record)
            return record
        }
    }

    /// Returns the record of a thread that exits, which reads no more.
    func release() { Self.records.withLock { $0.free.append(self) } }

    /// Starts a read. The fence orders this store before the reader's loads of stamps, as `waitForReaders()`'s fence
    /// orders a writer's new stamp before its loads of records: so either the writer sees this read in progress, or the
    /// reader sees the new stamp.
    @inline(__always)
    func enter() {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }

    /// Ends a read, after the value is copied: a writer that sees the sequence move on may let the instance go.
    @inline(__always)
    func leave() {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }

    /// Waits until every read in progress when it was called has ended. Called after a stamp changed, before what the
    /// change removed is let go. A read takes tens of nanoseconds and runs no user code, so this waits at most that
    /// long for a running reader, or until a preempted one runs again.
    static func waitForReaders() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        let all = records.withLock { $0.all }
        for record in all {
            let seen = record.sequence.load(ordering: .acquiring)
            guard seen & 1 == 1 else { continue }
            while record.sequence.load(ordering: .acquiring) == seen { sched_yield() }
        }
    }
}

// MARK: - A thread's answers

/// A cached instance that a thread's resolve found under the lock, kept for its next resolves of the same key: the
/// registry it was found in, with that registry's stamp then, and the instance, unretained. While the stamp holds, the
/// registry holds the instance; a change that removes it waits for readers before letting it go.
struct KeptAnswer {
    var service: ObjectIdentifier?
    var name: String?
    var registry: ObjectIdentifier?
    var stamp: UInt64 = 0
    var instance: Unmanaged<Instance>?
    /// The instance is an async factory's, which only `resolveAsync` may take.
    var isAsync = false
    /// The registration was made without knowing its instances are `Sendable`.
    var unsureSendable = false
}

/// A thread's kept answers: a small table, indexed by a hash of the key, where a later answer replaces the one in its
/// place. Read and written only by its thread.
struct ThreadAnswers {
    static let count = 64
    let answers: UnsafeMutablePointer<KeptAnswer>
    let reader = ReaderRecord.acquire()

    init() {
        answers = .allocate(capacity: Self.count)
        answers.initialize(repeating: KeptAnswer(), count: Self.count)
    }

    /// Frees the table, when the thread exits.
    func destroy() {
        answers.deinitialize(count: Self.count)
        answers.deallocate()
        reader.release()
    }

    /// The place of `key`'s answer.
    @inline(__always)
    func place(of key: RegistrationKey) -> UnsafeMutablePointer<KeptAnswer> {
        var hash = UInt(bitPattern: key.service) &* 0x9E37_79B9_7F4A_7C15
        if let name = key.name { hash &+= UInt(bitPattern: name.utf8.count &+ 1) &* 0xBF58_476D_1CE4_E5B9 }
        return answers + Int(hash >> 58)
    }
}

extension HiveCore {
    /// The value of `key`'s instance, when this thread kept an answer for it that still holds; `nil` otherwise, for the
    /// locked path to answer. Takes no lock, and writes only this thread's reader record.
    ///
    /// Called only while nothing records or traces (`ThreadContext.mayRecordOrTrace`). Inlined into both resolve entry
    /// points, as the locked path it replaces was.
    @inline(__always)
    func keptValue<Service>(_ key: RegistrationKey, async: Bool) -> Service? {
        guard key.arguments == nil else { return nil }
        let thread = ThreadContext.current.state
        let answer = thread.pointee.answers.place(of: key)
        guard answer.pointee.service == key.service, answer.pointee.name == key.name,
            let instance = answer.pointee.instance, async || !answer.pointee.isAsync,
            !(key.requiresSendable && answer.pointee.unsureSendable)
        else { return nil }
        let reader = thread.pointee.answers.reader
        reader.enter()
        guard holds(answer, for: key.service) else {
            reader.leave()
            return nil
        }
        let value: Service = cachedValue(instance)
        reader.leave()
        return value
    }

    /// Whether `answer` still holds for a resolve from this hive: no nearer hive has registered its service, and the
    /// registry it was found in has not changed since.
    @inline(__always)
    private func holds(_ answer: UnsafeMutablePointer<KeptAnswer>, for service: ObjectIdentifier) -> Bool {
        for reads in lineageReads {
            if ObjectIdentifier(reads) == answer.pointee.registry { return reads.current == answer.pointee.stamp }
            if reads.mayRegister(service) { return false }
        }
        return false
    }

    /// Keeps, for this thread's next resolves of `key`, the instance that the locked lookup found cached and returned,
    /// when the answer can be checked without the lock: the family has no override layer and no trace, the key takes no
    /// arguments, and the instance was built from this family's services only. With the family lock held.
    @inline(never)
    func keepAnswer(_ key: RegistrationKey, _ instance: Unmanaged<Instance>, in state: borrowing HiveFamily) {
        guard key.arguments == nil, state.liveLayers == 0, state.diagnostics.trace == nil,
            !instance._withUnsafeGuaranteedRef({ $0.dependencies.crossesFamilies })
        else { return }
        for depth in lineage.indices {
            guard let peek = state.hives[lineage[depth].index].registry.peek(key) else { continue }
            guard peek.instance?.toOpaque() == instance.toOpaque() else { return }
            let registry = state.hives[lineage[depth].index].registry.reads
            let entry = peek.entry.takeUnretainedValue()
            ThreadContext.current.state.pointee.answers.place(of: key).pointee = KeptAnswer(
                service: key.service, name: key.name, registry: ObjectIdentifier(registry),
                stamp: registry.stampForAnswer(), instance: instance, isAsync: entry.isAsync,
                unsureSendable: entry.unsureSendable)
            return
        }
    }
}

extension HiveFamily {
    /// Invalidates every answer kept for the family's hives: an override layer or a trace starts, under which a
    /// resolve may have to answer otherwise.
    func changeEveryHive() {
        for hive in hives { hive.registry.reads.change() }
    }
}
