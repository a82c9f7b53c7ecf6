// Cached reads without the lock: a resolve whose thread has already found the instance cached asks its own thread's
// answers, checks them against the stamps of the hives it searches, and copies the value, taking no lock and writing
// nothing another thread writes. A writer that removes an instance waits, before it lets the instance go, for the
// readers that may still be copying it. ARCHITECTURE.md ("Cached reads") states the invariants.
//
// The small functions of the read path are always inlined. Left to the optimizer, five of them were called, and a
// cached resolve ran 275 instructions, not 251 (`Benchmarks/count-instructions 02`; 18: 397, not 388; 04: 947, not
// 941; measured when the thread's state was read through `pthread_getspecific`).

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
    /// in the family. It starts at a number unique in the process, shifted past the changes of one place, so that a
    /// kept answer can't match a later registry at the same address; changing it touches this registry's memory only.
    private let stamp = Atomic<UInt64>(HiveReads.nextBase())
    /// The bits of every service registered here since the place was made; never cleared. A resolve from a child hive
    /// uses an answer found in an ancestor only while the bit of its service is clear in each nearer hive.
    private let services = Atomic<UInt64>(0)
    /// Whether a thread may have kept an answer that points into this registry; set with the family lock held. While
    /// `false`, a change lets go of what it removes without waiting for readers.
    private let isAnswered = Atomic<Bool>(false)
    /// Whether the family has a live override layer: a hint that tells a resolve to read its task's layers, since an
    /// answer holds only under the layers it was found under (`KeptAnswer.layers`). Outside overrides, the task-local is
    /// never read.
    private let layered = Atomic<Bool>(false)

    private static let bases = Atomic<UInt64>(0)
    private static func nextBase() -> UInt64 { bases.wrappingAdd(1, ordering: .relaxed).newValue << 32 }

    /// The current stamp, as a reader sees it: sequentially consistent, after the reader's `ReaderRecord.enter()`.
    var current: UInt64 { stamp.load(ordering: .sequentiallyConsistent) }

    /// Whether this registry may register `service` (a clear bit says it never has).
    func mayRegister(_ service: ObjectIdentifier) -> Bool {
        services.load(ordering: .sequentiallyConsistent) & ServiceMask.bit(of: service) != 0
    }

    /// Whether the family had a live override layer when last told; a hint only.
    var isLayered: Bool { layered.load(ordering: .relaxed) }

    /// Invalidates every answer kept for this registry; for a change that lets nothing go. With the family lock held,
    /// so the stamp has one writer at a time.
    func change() { stamp.store(stamp.load(ordering: .relaxed) &+ 1, ordering: .sequentiallyConsistent) }

    /// Invalidates every kept answer, then waits until no reader can still be copying a value it read before: for a
    /// change that lets an instance go, which the caller releases after this returns.
    ///
    /// A registry no answer was ever kept for changes nothing: no thread can hold an answer that names it. A request's
    /// child hive is one, and its release skips the stamp (`Benchmarks/count-instructions 12`, with `keepAnswer`).
    func changeLettingGo() {
        guard isAnswered.load(ordering: .relaxed) else { return }
        change()
        ReaderRecord.waitForReaders()
    }

    /// Notes a registration of `service`, before it is stored.
    func registers(_ service: ObjectIdentifier) { registers(bits: ServiceMask.bit(of: service)) }

    /// Notes registrations of the services whose bits are `bits`, before they are stored: a child's provisions, noted
    /// at once.
    func registers(bits: UInt64) {
        let known = services.load(ordering: .relaxed)
        if known & bits != bits { services.store(known | bits, ordering: .sequentiallyConsistent) }
        change()
    }

    /// Whether `answer` holds as far as this registry can tell: `true` or `false` when it was found here, as its stamp
    /// says; `false` when it was found farther and this registry may register its service; `nil` to ask the next one.
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    func holds(_ answer: UnsafeMutablePointer<KeptAnswer>, for service: ObjectIdentifier) -> Bool? {
        if ObjectIdentifier(self) == answer.pointee.registry { return current == answer.pointee.stamp }
        return mayRegister(service) ? false : nil
    }

    /// Tells the registry whether its family has a live override layer.
    func setLayered(_ isLayered: Bool) { layered.store(isLayered, ordering: .relaxed) }

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
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    func enter() {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }

    /// Ends a read, after the value is copied: a writer that sees the sequence move on may let the instance go.
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
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
///
/// Or, for a transient, the registration it was found to be, unretained, which the next resolves build from: while the
/// stamp holds, the registry holds the entry, and a change that removes it waits for readers as it does for an instance.
struct KeptAnswer {
    var service: ObjectIdentifier?
    var name: String?
    var isVariant = false
    var registry: ObjectIdentifier?
    var stamp: UInt64 = 0
    var instance: Unmanaged<Instance>?
    /// A transient's registration, where `instance` is `nil`. Unretained, as `instance` is: a thread's answers never
    /// keep a registration alive after the registry lets it go (`CachedReadTests`, `transientEntryLetGo`).
    var entry: Unmanaged<Entry>?
    /// The `OverrideLayer.serial` of the innermost layer of the task the answer was found for, or 0 for none: the answer
    /// holds only for a resolve under the same layers, checked while the family has any.
    var layers: UInt64 = 0
    /// Who may not take the answer, as bits: `refusesSync` for an async factory's instance, which only `resolveAsync`
    /// may take; `refusesSendable` for a registration made without knowing that its instances are `Sendable`;
    /// `foundUnderLayers` for an answer that only a resolve under the same layers may take; `refusesAsync` for a `.weak`
    /// instance.
    var flags: UInt8 = 0

    static let refusesSync: UInt8 = 1
    static let refusesSendable: UInt8 = 2
    /// Found under override layers (`layers` is not 0): refused outside them.
    static let foundUnderLayers: UInt8 = 4
    /// A `.weak` instance, whose object only the synchronous resolve unwraps: `resolveAsync` copies a cached value as
    /// it is, and takes a weak one through the lock.
    static let refusesAsync: UInt8 = 8

    /// The flags of an answer kept for an async factory's instance or not, one registered without knowing that it is
    /// `Sendable` or not, found under override layers or not, and of a `.weak` instance or not.
    static func flags(isAsync: Bool, unsureSendable: Bool, underLayers: Bool = false, isWeak: Bool = false) -> UInt8 {
        (isAsync ? refusesSync : 0) | (unsureSendable ? refusesSendable : 0) | (underLayers ? foundUnderLayers : 0)
            | (isWeak ? refusesAsync : 0)
    }

    /// The flags that refuse a resolve that is `async` or not, and asks for a `Sendable` service or not.
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    static func refusals(async: Bool, sendable: Bool) -> UInt8 {
        (async ? refusesAsync : refusesSync) | (sendable ? refusesSendable : 0)
    }
}

/// A thread's kept answers: a small table, indexed by a hash of the key, where a later answer replaces the one in its
/// place, and the thread's reader record. Read and written only by its thread.
struct ThreadAnswers {
    static let count = 64
    let answers: UnsafeMutablePointer<KeptAnswer>
    /// Retained until the thread exits. Unretained here, because reading a stored reference retains and releases it:
    /// `Benchmarks/count-instructions 02`.
    let reader: Unmanaged<ReaderRecord>

    init() {
        answers = .allocate(capacity: Self.count)
        answers.initialize(repeating: KeptAnswer(), count: Self.count)
        reader = .passRetained(ReaderRecord.acquire())
    }

    /// Frees the table, when the thread exits.
    func destroy() {
        answers.deinitialize(count: Self.count)
        answers.deallocate()
        reader.takeRetainedValue().release()
    }

    /// One of the two places where the answer for `service` may be (`way` 0 or 1): an even place for its unnamed
    /// registration without arguments, an odd one for any other, so that a plain resolve finds no variant's answer
    /// where it looks. Hashes no name, which would copy the key (`Benchmarks/count-instructions 02 04`).
    ///
    /// Two places, from different bits of the hash, so that two services whose first places collide still both stay
    /// kept: with one place, they took turns, and each resolve of either took the lock and kept its answer again. How
    /// often that happens depends on where the types' metadata lie in memory (`count-instructions 22`, a component
    /// call: 6,854 instructions under valgrind, where its two named resolves collided, against 6,209 through the lock).
    @inline(__always)
    func place(of service: ObjectIdentifier, isPlain: Bool, way: Int) -> UnsafeMutablePointer<KeptAnswer> {
        answers + Self.index(of: service, isPlain: isPlain, way: way)
    }

    /// The index of `place(of:isPlain:way:)`; inlined into it, as it is into every cached resolve
    /// (`Benchmarks/count-instructions 02`).
    @inline(__always)
    static func index(of service: ObjectIdentifier, isPlain: Bool, way: Int) -> Int {
        let hash = UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15
        let first = Int(truncatingIfNeeded: hash >> 58) & ~1
        var index = first
        if way != 0 {
            index = Int(truncatingIfNeeded: (hash >> 52) & 63) & ~1
            if index == first { index ^= 2 }  // Never the first place again.
        }
        return index | (isPlain ? 0 : 1)
    }

    /// Forgets the answer kept for `key`, if any.
    func forget(_ key: RegistrationKey) {
        for way in 0...1 {
            let answer = place(of: key.service, isPlain: key.isPlain, way: way)
            if answer.pointee.answers(key) {
                answer.pointee.instance = nil
                answer.pointee.entry = nil
            }
        }
    }

    /// The place to keep a new answer for `key`: the one that already answers for it, else an empty one, else the
    /// first, whose answer the new one replaces.
    func placeToKeep(_ key: RegistrationKey) -> UnsafeMutablePointer<KeptAnswer> {
        let isPlain = key.isPlain
        let first = place(of: key.service, isPlain: isPlain, way: 0)
        let second = place(of: key.service, isPlain: isPlain, way: 1)
        if first.pointee.answers(key) { return first }
        if second.pointee.answers(key) { return second }
        if first.pointee.isEmpty { return first }
        return second.pointee.isEmpty ? second : first
    }
}

extension KeptAnswer {
    /// Whether this place keeps no answer.
    var isEmpty: Bool { instance == nil && entry == nil }

    /// Whether this answer is for `key`, whatever its stamp says.
    func answers(_ key: RegistrationKey) -> Bool {
        service == key.service && (key.isPlain ? !isVariant : answersVariant(key))
    }

    /// Whether this answer is for `key`, a key with a name or arguments, of this answer's service.
    func answersVariant(_ key: RegistrationKey) -> Bool {
        key.arguments == nil && isVariant && name == key.name
    }
}

extension HiveCore {
    /// The instance of `key`, when this thread kept an answer for it that still holds, with this thread's read begun:
    /// the caller copies the instance's value, then ends the read with `ThreadContext.endRead()`. `nil` otherwise, with
    /// no read in progress, for the locked path to answer. Takes no lock, and writes only this thread's reader record.
    ///
    /// Not generic, so that it hands back no `Optional` of the service, whose metadata a generic function must look up
    /// (`Benchmarks/count-instructions 02`: 763 instructions a resolve when it returned the value, against 411 when it
    /// was inlined and about 300 this way). Called only when the resolve is neither recorded nor traced, as the lookup
    /// answers `.cached` only then.
    @inline(__always)
    func keptInstance(_ key: RegistrationKey, async: Bool, on context: ThreadContext) -> Unmanaged<Instance>? {
        // While the family has override layers, an answer holds only for the layers it was found under: out of line,
        // so that the resolve outside any layer doesn't save the registers that reading the task's layers needs
        // (`Benchmarks/count-instructions 02`: 260 instructions, not 222, with the check in line).
        if reads._withUnsafeGuaranteedRef({ $0.isLayered }) {
            return keptInstanceUnderLayers(key, async: async, on: context)
        }
        return keptInstance(key, async: async, on: context, layered: false)
    }

    /// `keptInstance(_:async:on:)` while the family has override layers.
    @inline(never)
    private func keptInstanceUnderLayers(
        _ key: RegistrationKey, async: Bool, on context: ThreadContext
    ) -> Unmanaged<Instance>? {
        keptInstance(key, async: async, on: context, layered: true)
    }

    /// `keptInstance(_:async:on:)`, with the family's hint of live layers. Under layers, the task's are read only once
    /// an answer is found: a resolve that finds none, as a transient's, reads them once, in the lookup
    /// (`Benchmarks/count-instructions 08a`: 1,293 instructions when read here first, 1,114 this way).
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    private func keptInstance(
        _ key: RegistrationKey, async: Bool, on context: ThreadContext, layered: Bool
    ) -> Unmanaged<Instance>? {
        let isPlain = key.name == nil && key.arguments == nil
        var answer = context.state.pointee.answers.place(of: key.service, isPlain: isPlain, way: 0)
        if answer.pointee.service != key.service || (!isPlain && !matchesName(answer, key)) {
            answer = context.state.pointee.answers.place(of: key.service, isPlain: isPlain, way: 1)
            guard answer.pointee.service == key.service, isPlain || matchesName(answer, key) else { return nil }
        }
        // An answer found under layers holds for no task outside them, even where the family's hint says it has none:
        // the hint is relaxed, and the layer that keeps the instance may be gone. Outside layers, a flag refuses it,
        // with the others: compared in line there, the serial stopped the resolve from inlining this function
        // (`Benchmarks/count-instructions 02`: 250 instructions, not 222).
        let refused =
            KeptAnswer.refusals(async: async, sendable: key.requiresSendable)
            | (layered ? 0 : KeptAnswer.foundUnderLayers)
        guard let instance = answer.pointee.instance, answer.pointee.flags & refused == 0 else { return nil }
        if layered, answer.pointee.layers != OverrideLayer.currentSerial() { return nil }
        let reader = context.state.pointee.answers.reader
        reader._withUnsafeGuaranteedRef { $0.enter() }
        guard holds(answer, for: key.service) else {
            reader._withUnsafeGuaranteedRef { $0.leave() }
            answer.pointee.instance = nil  // So that the next resolve of the key goes to the lock at once.
            return nil
        }
        return instance
    }

    /// Whether the kept `answer` is for `key`, whose name or arguments make it a variant: outlined, so that the plain
    /// resolve doesn't copy the key.
    @inline(never)
    private func matchesName(_ answer: UnsafeMutablePointer<KeptAnswer>, _ key: RegistrationKey) -> Bool {
        answer.pointee.answersVariant(key)
    }

    /// Whether `answer` still holds for a resolve from this hive: no nearer hive has registered its service, and the
    /// registry it was found in has not changed since.
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    private func holds(_ answer: UnsafeMutablePointer<KeptAnswer>, for service: ObjectIdentifier) -> Bool {
        if let holds = reads._withUnsafeGuaranteedRef({ $0.holds(answer, for: service) }) { return holds }
        return parent.map { ancestorHolds(answer, from: $0, for: service) } ?? false
    }

    /// `holds` for the ancestors of a child hive, nearest first: the parents' cores are walked unretained, since this
    /// core holds its parent, and each its own.
    @inline(never)
    private func ancestorHolds(
        _ answer: UnsafeMutablePointer<KeptAnswer>, from parent: HiveCore, for service: ObjectIdentifier
    ) -> Bool {
        var core = Unmanaged.passUnretained(parent)
        while true {
            let (holds, next) = core._withUnsafeGuaranteedRef { core in
                (
                    core.reads._withUnsafeGuaranteedRef { $0.holds(answer, for: service) },
                    core.parent.map(Unmanaged.passUnretained)
                )
            }
            if let holds { return holds }
            guard let next else { return false }
            core = next
        }
    }

    /// Keeps, for this thread's next resolves of `key`, the instance that the locked lookup found cached and returned
    /// under `layers`, when the answer can be checked without the lock: the family has no trace, the key takes no
    /// arguments, the instance was built from this family's services only, and it is the root hive's: cached beside the
    /// root's registration of `key`, or kept by the innermost layer for that registration or for the layer's override
    /// of `key` on the root. A child hive's own instances, such as what a request provides, are not kept: a request hive
    /// is resolved from a few times, and released, which would otherwise wait for readers
    /// (`Benchmarks/count-instructions 12`). With the family lock held, and `layers` read if the family has any.
    @inline(__always)
    func keepAnswer(
        _ key: RegistrationKey, _ instance: Unmanaged<Instance>, layers: Layers, in state: borrowing HiveFamily
    ) {
        // What a child hive registers itself, as a request provides, is never kept: ruled out before a call
        // (`Benchmarks/count-instructions 12`: 7,800 instructions when the call ruled it out, 7,746 with this check
        // and a release that changes no stamp, `changeLettingGo`).
        if parent != nil, reads._withUnsafeGuaranteedRef({ $0.mayRegister(key.service) }) { return }
        keepRootAnswer(key, instance, layers: layers, in: state)
    }

    /// `keepAnswer` past its first check: keeps the answer if the instance is the root hive's.
    @inline(never)
    private func keepRootAnswer(
        _ key: RegistrationKey, _ instance: Unmanaged<Instance>, layers: Layers, in state: borrowing HiveFamily
    ) {
        guard key.arguments == nil, state.diagnostics.trace == nil,
            !instance._withUnsafeGuaranteedRef({ $0.dependencies.crossesFamilies }),
            let index = rootAnswering(key.service, in: state),
            let entry = rootEntry(answering: key, with: instance, at: index, layers: layers, in: state)
        else { return }
        let serial = layers.innermost?.serial ?? 0
        keep(
            key, instance: instance, from: state.hives[index].registry.reads, layers: serial,
            flags: KeptAnswer.flags(
                isAsync: entry.isAsync, unsureSendable: entry.unsureSendable, underLayers: serial != 0,
                isWeak: entry.lifetime == .weak))
    }

    /// The entry whose instance `instance` is, for `key` on the root hive at `index`: the root's registration, whose
    /// instance is cached beside it or kept by the innermost layer, or the innermost layer's override of `key` on the
    /// root. `nil` when it is none of these, such as a nearer hive's override.
    private func rootEntry(
        answering key: RegistrationKey, with instance: Unmanaged<Instance>, at index: Int, layers: Layers,
        in state: borrowing HiveFamily
    ) -> Entry? {
        let peek = state.hives[index].registry.peek(key)
        if let peek, peek.instance?.toOpaque() == instance.toOpaque() { return peek.entry.takeUnretainedValue() }
        guard let stack = layers.innermost else { return nil }
        let root = Override.Hive(family: familyID, id: lineage[lineage.endIndex - 1])
        if case .override(let entry, _) = stack.answer(for: key, on: root, argumentsMatch: { $0.isEmpty }) {
            return stack.kept(entry)?.toOpaque() == instance.toOpaque() ? entry.takeUnretainedValue() : nil
        }
        guard let peek, stack.kept(peek.entry)?.toOpaque() == instance.toOpaque() else { return nil }
        return peek.entry.takeUnretainedValue()
    }

    /// Keeps, for this thread's next resolves of the collection `key`, the snapshot that the locked lookup returned
    /// from the hive at `holder`, when the answer can be checked without the lock, as `keepAnswer` says: the snapshot
    /// is the root hive's, and no nearer hive may contribute to the collection. With the family lock held, for a task
    /// under no override layer, in a family with no trace.
    func keepCollectionAnswer(
        _ key: RegistrationKey, _ snapshot: CollectionSnapshot, holder: Int, in state: borrowing HiveFamily
    ) {
        guard !snapshot.crossesFamilies, rootAnswering(key.service, in: state) == holder else { return }
        // Safe: a snapshot's values are a `Box` of them (`Box.collection`).
        keep(
            key, instance: Unmanaged.passUnretained(unsafeDowncast(snapshot.values, to: Instance.self)),
            from: state.hives[holder].registry.reads, layers: 0,
            flags: KeptAnswer.flags(isAsync: snapshot.isAsync, unsureSendable: snapshot.unsureSendable))
    }

    /// The index of the root hive of the lineage, when an answer found there holds from this hive: while no nearer hive
    /// may register `service` (see `holds`). That costs no lookup to rule out, where a request hive resolves what it
    /// provides itself (`Benchmarks/count-instructions 12`: 7,906 instructions when each hive of the lineage was looked
    /// up).
    private func rootAnswering(_ service: ObjectIdentifier, in state: borrowing HiveFamily) -> Int? {
        let root = lineage.endIndex - 1
        for depth in lineage.startIndex..<root
        where state.hives[lineage[depth].index].registry.reads.mayRegister(service) {
            return nil
        }
        return lineage[root].index
    }

    /// Stores the answer, an instance or a transient's entry, in this thread's place for `key`.
    private func keep(
        _ key: RegistrationKey, instance: Unmanaged<Instance>? = nil, entry: Unmanaged<Entry>? = nil,
        from reads: HiveReads, layers: UInt64, flags: UInt8
    ) {
        let isPlain = key.isPlain
        ThreadContext.current.state.pointee.answers.placeToKeep(key).pointee = KeptAnswer(
            service: key.service, name: key.name, isVariant: !isPlain, registry: ObjectIdentifier(reads),
            stamp: reads.stampForAnswer(), instance: instance, entry: entry, layers: layers, flags: flags)
    }

    // MARK: Transients

    /// The registration of `key`, when this thread kept an answer that it is a transient and the answer still holds:
    /// retained, for the caller to build from after the read, which this ends. `nil` otherwise, for the locked path to
    /// answer. Takes no lock, and writes only this thread's reader record and the entry's reference count. Called
    /// only when the resolve is neither recorded nor traced, after `keptInstance` found no instance, and only while the
    /// family has no live override layer (`HiveReads.isLayered`), which the caller reads: an answer is kept outside
    /// layers, and a layer that another task made live before it was kept changed no stamp.
    func keptTransient(_ key: RegistrationKey, on context: ThreadContext) -> Entry? {
        guard key.arguments == nil else { return nil }
        let answers = context.state.pointee.answers
        let isPlain = key.name == nil
        for way in 0...1 {
            let answer = answers.place(of: key.service, isPlain: isPlain, way: way)
            guard answer.pointee.answers(key) else { continue }
            guard let entry = answer.pointee.entry,
                answer.pointee.flags & KeptAnswer.refusals(async: false, sendable: key.requiresSendable) == 0
            else { return nil }
            answers.reader._withUnsafeGuaranteedRef { $0.enter() }
            guard holds(answer, for: key.service) else {
                answers.reader._withUnsafeGuaranteedRef { $0.leave() }
                answer.pointee.entry = nil  // So that the next resolve of the key goes to the lock at once.
                return nil
            }
            // Retained before the read ends: the registry may let the entry go once no reader is in a read.
            let retained = entry.takeUnretainedValue()
            answers.reader._withUnsafeGuaranteedRef { $0.leave() }
            return retained
        }
        return nil
    }

    /// Keeps, for this thread's next resolves of `key`, that it is the transient `entry`, which the locked lookup found
    /// under no override layer: when the answer can be checked without the lock, as `keepAnswer` says, the entry is
    /// the root hive's registration of `key`. With the family lock held.
    func keepTransientAnswer(
        _ key: RegistrationKey, _ entry: Unmanaged<Entry>, layers: Layers, in state: borrowing HiveFamily
    ) {
        guard key.arguments == nil, layers.innermost == nil, state.diagnostics.trace == nil,
            let index = rootAnswering(key.service, in: state),
            state.hives[index].registry.peek(key)?.entry.toOpaque() == entry.toOpaque()
        else { return }
        keep(
            key, entry: entry, from: state.hives[index].registry.reads, layers: 0,
            flags: KeptAnswer.flags(isAsync: false, unsureSendable: entry.takeUnretainedValue().unsureSendable))
    }
}

extension ThreadContext {
    /// Ends the read that `HiveCore.keptInstance` began, once the value is copied.
    // Inlined into the cached resolve: `count-instructions 02` ran 275 instructions without, 251 with (header).
    @inline(__always)
    func endRead() { state.pointee.answers.reader._withUnsafeGuaranteedRef { $0.leave() } }
}

extension HiveFamily {
    /// Invalidates every answer kept for the family's hives, and tells them whether the family has a live override
    /// layer: one starts or the last ends, or a trace starts, under which a resolve may have to answer otherwise.
    func changeEveryHive(layered: Bool) {
        for hive in hives {
            hive.registry.reads.change()
            hive.registry.reads.setLayered(layered)
        }
    }
}
