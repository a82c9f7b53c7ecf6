// A resolve of a collection: every contribution to it, in order, found by one lookup under the family lock, beside
// `Lookup.swift`'s lookup of one key. The instances cached where this resolve may use them are taken before unlocking;
// every other contribution is resolved after unlocking by the single resolve's steps (`Resolution.swift`), so that
// building, waiting, publishing, ownership, recording, tracing and errors are those of a single resolve.
//
// The order: a hive's own contributions in the order they were made (`Registry.Registrations.variants` keeps them in
// it), the root's first and the asking hive's last; after each hive's, the contributions that override layers add to
// that hive, the outermost layer's first, each layer's in the order declared.

/// What the collection lookup found under the family lock: the cached instances that the resolve may use as they are,
/// retained; the contributions left to resolve, each with its place in the collection; and why the resolve cannot go
/// on, if it cannot.
///
/// Not generic: unspecialized code looks each generic type's metadata up in the runtime's cache when it uses one.
struct Gathering {
    /// The instances, in the collection's order, between the pending contributions.
    var cached: ContiguousArray<Instance> = []
    var pending: [Pending] = []
    var failure: Failure?

    /// Whether every contribution is cached, and nothing failed.
    var isCached: Bool { pending.isEmpty && failure == nil }

    /// A contribution to resolve, and its index in the collection.
    struct Pending {
        let position: Int
        let found: Found
    }

    /// Why a collection cannot be resolved.
    enum Failure {
        case released
        /// A strict override layer on a hive the collection is read from neither contributes to it nor replaces it.
        case notOverridden
        /// The resolve requires `Sendable`, and this contribution is not sure its instances are.
        case notSendable(Entry)

        func error(_ collection: ServiceHive.ServiceKey, chain: [ServiceHive.ServiceKey]) -> ServiceHiveError {
            switch self {
            case .released: .hiveReleased(collection)
            case .notOverridden: .notOverridden(collection, chain: chain)
            case .notSendable(let entry): .notSendable(entry.serviceKey, chain: chain)
            }
        }
    }
}

/// The values of a collection's contributions, as a resolve of it returns them, and what the quick path checks before
/// it returns them; the hive keeps it until any of the contributions changes (`Registry.snapshots`).
///
/// `Sendable` as the compiler checks it: a struct of `let`s of `Sendable` types. The engine hands the quick path only
/// `values`, one reference, so that the values are as near as when the snapshot was one class holding them:
/// `Benchmarks/count-instructions 28` counts 411 instructions, as it did (410), with `values` a `Box` of them; a class
/// holding such a `Box` cost it 11%, and returning this whole struct 433.
struct CollectionSnapshot: Sendable {
    /// A `Box` of the values, `[Service]`, made and read by the inlinable `resolveAll`, specialized for `Service`.
    let values: any AnyObject & Sendable
    /// Whether a contribution's factory is async: only `resolveAllAsync` may return its instance.
    let isAsync: Bool
    /// Whether an instance was built from another family's services: a lookup reads the task's layers to use it.
    let crossesFamilies: Bool
    /// Whether a contribution was made where its service was not known to be `Sendable`.
    let unsureSendable: Bool
}

extension Box {
    /// A box of a collection's values, for the inlinable `snapshot(_:_:)`: the array is made once, under the family
    /// lock, before any other thread sees it, and never changes, and its elements are cached instances' values, which
    /// `ServiceHive.Scope` documents must be safe to use from any thread. `Box` is `Sendable` on that ground for every
    /// cached instance; `CollectionSnapshotRaceTests` resolves collections on threads while others change their
    /// contributions.
    @usableFromInline
    static func collection(_ values: Value) -> Box { Box(values) }
}

extension HiveCore {
    // MARK: - The entry points

    /// The values of every contribution to the collection `key`, in order, when each one's instance is cached where
    /// this resolve may use it as it is, and no override layer or trace is in the way: the quick path of `resolveAll`
    /// and `resolveAllAsync`, whose inlinable code reads them out of the snapshot's `Box` of them. `nil` when
    /// anything else must be done, which `resolveAll(_:)` or `resolveAllAsync(_:)` then does.
    ///
    /// It takes the family lock once: one lookup for the collection, not one per element. When one hive of the lineage
    /// has the contributions, as when they are the app's, it returns the values of the snapshot that hive keeps of
    /// them, or makes it; otherwise it makes one for this resolve. `make` makes its values, with the lock held, from
    /// the instances, unretained and valid while the lock is held, in order: it must only copy their values out, as
    /// `cachedValue(_:)` does, in code specialized for the element type, where this generic code would copy each
    /// through the type's witnesses and look the metadata of their array up.
    ///
    /// - Parameter async: Whether the caller is `resolveAllAsync`, which may take the cached instance of an async
    ///   factory.
    func cachedCollection(
        _ key: RegistrationKey, async: Bool,
        make: (UnsafeBufferPointer<Unmanaged<Instance>>) -> any AnyObject & Sendable
    ) -> (any AnyObject & Sendable)? {
        guard Self.mayAnswerFromSnapshot(async: async) else { return nil }
        var layers = Layers.unread
        return family.withLock { state -> (any AnyObject & Sendable)? in
            if state.liveLayers != 0 { _ = layers.read() }
            guard case .registry = placement(of: .collection, under: layers.innermost), state.diagnostics.trace == nil,
                state.hives[lineage[lineage.startIndex].index].isLive(lineage[lineage.startIndex])
            else { return nil }
            // The one hive of the lineage with contributions, if only one has any.
            var holders = 0
            var holder: Int?
            for id in lineage where state.hives[id.index].registry.services.index(of: key.service) != nil {
                holders += 1
                holder = id.index
            }
            if holders == 1, let index = holder,
                let kept = state.hives[index].registry.snapshots.index(of: key.service)
            {
                let snapshot = state.hives[index].registry.snapshots[bucket: kept]
                guard (async || !snapshot.isAsync) && !(key.requiresSendable && snapshot.unsureSendable) else {
                    return nil
                }
                // Built from another family's services, as the single lookup reads them: under that family's layers, the
                // placement rule keeps it nowhere.
                if snapshot.crossesFamilies, !layers.isRead,
                    case .nowhere = placement(of: .collection, under: layers.read())
                {
                    return nil
                }
                keepCollectionAnswer(key, snapshot, holder: index, in: state)
                return snapshot.values
            }
            let snapshot = state.hives.withUnsafeBufferPointer { hives -> CollectionSnapshot? in
                withUnsafeTemporaryAllocation(of: Unmanaged<Instance>.self, capacity: count(of: key, in: hives)) {
                    buffer in
                    var count = 0
                    var (isAsync, crosses, unsure) = (false, false, false)
                    let complete = forEachContribution(to: key, in: hives) { depth, entry, instance in
                        guard case .cached(let cached) = decide(entry, instance, depth, key, &layers, async: async)
                        else {
                            return false
                        }
                        entry._withUnsafeGuaranteedRef {
                            isAsync = isAsync || $0.isAsync
                            unsure = unsure || $0.unsureSendable
                        }
                        crosses = crosses || cached._withUnsafeGuaranteedRef { $0.dependencies.crossesFamilies }
                        buffer[count] = cached
                        count += 1
                        return true
                    }
                    guard complete else { return nil }
                    return CollectionSnapshot(
                        values: make(UnsafeBufferPointer(rebasing: buffer[..<count])), isAsync: isAsync,
                        crossesFamilies: crosses, unsureSendable: unsure)
                }
            }
            if holders == 1, let index = holder, let snapshot {
                state.hives[index].registry.snapshots.update(key.service, empty: { snapshot }) { $0 = snapshot }
                keepCollectionAnswer(key, snapshot, holder: index, in: state)
            }
            return snapshot?.values
        }
    }

    /// The snapshot of the collection `key` that this thread kept from an earlier resolve, while it still holds, with
    /// this thread's read begun, as `keptInstance(_:async:on:)` gives an instance: the caller copies the values out of
    /// it, then ends the read with `ThreadContext.endRead()`. Takes no lock. `nil` when `cachedCollection` must answer.
    func keptCollection(_ key: RegistrationKey, async: Bool) -> Unmanaged<Instance>? {
        guard Self.mayAnswerFromSnapshot(async: async) else { return nil }
        return keptInstance(key, async: async, on: ThreadContext.current)
    }

    /// Whether a resolve of a collection may answer with a snapshot's values: not while it is recorded, as what a
    /// construction in progress uses is, or traced, since the path that resolves each contribution notes both.
    private static func mayAnswerFromSnapshot(async: Bool) -> Bool {
        guard ThreadContext.mayRecordOrTrace else { return true }
        if AsyncContext.recordingCurrent != nil { return false }
        return async || !ThreadContext.current.isRecordingOrTracing
    }

    /// Resolves every contribution to the collection `key` as a `Service`, in order: what `resolveAll` does when
    /// `cachedCollection(_:async:make:)` does not answer. `key` is the collection's key,
    /// `RegistrationKey(collectionOf: Service.self, name: nil)`.
    @inline(never)
    func resolveAll<Service>(_ key: RegistrationKey) throws(ServiceHiveError) -> [Service] {
        var mayCache = true
        if ThreadContext.mayRecordOrTrace {
            let thread = ThreadContext.current
            if !thread.isRecording, let context = AsyncContext.recordingCurrent {
                // In the task of an async factory that builds a shared instance, as `resolve` says.
                return try resolveSynchronously(for: context) { () throws(ServiceHiveError) in try resolveAll(key) }
            }
            mayCache = !thread.isRecordingOrTracing  // What it finds is recorded, or joins the trace.
        }
        var layers = Layers.unread
        var gathering = Gathering()
        let state = family.lock()
        let isTraced = state.pointee.diagnostics.trace != nil
        gather(key, in: state.pointee, layers: &layers, mayCache: mayCache && !isTraced, async: false, &gathering)
        family.unlock()
        let context = ThreadContext.current
        let collection = Entry(collectionOf: Service.self, site: ServiceHive.RegistrationSite(fileID: "", line: 0))
        if isTraced || context.isTracing {
            return try reporting(collection.serviceKey, context) { () throws(ServiceHiveError) in
                try resolveEach(gathering, key, collection, &layers, isTraced, context)
            }
        }
        return try topLevel(context) { () throws(ServiceHiveError) in
            try resolveEach(gathering, key, collection, &layers, isTraced, context)
        }
    }

    /// Resolves every contribution to the collection `key` as a `Service`, in order, awaiting async factories: what
    /// `resolveAllAsync` does when `cachedCollection(_:async:make:)` does not answer.
    nonisolated(nonsending) func resolveAllAsync<Service>(_ key: RegistrationKey) async throws(ServiceHiveError)
        -> [Service]
    {
        var layers = Layers.unread
        var gathering = Gathering()
        let state = family.lock()
        // Cached instances serve it as `resolveAsync`'s quick path says: unless a construction in this task records.
        gather(
            key, in: state.pointee, layers: &layers, mayCache: AsyncContext.recordingCurrent == nil, async: true,
            &gathering)
        family.unlock()
        return try await resolveEachAsync(gathering, key)
    }

    // MARK: - The collection lookup

    /// Finds the contributions to the collection `key` as this hive sees them, with the family lock held: for each,
    /// its cached instance when `mayCache` and this resolve may use it as it is, or else what a single resolve of it
    /// needs.
    ///
    /// Without override layers in the current task, it reads each hive's contributions in place, in one pass, and
    /// decides on a cached instance with the single lookup's `isUsable`. Under layers, it asks the one lookup,
    /// `lookUp(_:in:layers:argumentsMatch:mayCache:async:)`, of each contribution's key, so that what a layer keeps,
    /// owns or overrides is decided by the same rules as for a single resolve.
    func gather(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        _ gathering: inout Gathering
    ) {
        if !layers.isRead, state.liveLayers != 0 { _ = layers.read() }
        guard state.hives[lineage[lineage.startIndex].index].isLive(lineage[lineage.startIndex]) else {
            gathering.failure = .released
            return
        }
        if case .registry = placement(of: .collection, under: layers.innermost),
            gatherFromRegistries(key, in: state, layers: &layers, mayCache: mayCache, async: async, &gathering)
        {
            return
        }
        gathering = Gathering()
        gatherUnderLayers(key, in: state, layers: &layers, mayCache: mayCache, async: async, &gathering)
    }

    /// The collection lookup without override layers: each hive's contributions, root first, read in place.
    ///
    /// - Returns: `false` when a cached instance, built from another family's services, made it read the task's layers
    ///   and there are some: the caller then gathers under them.
    private func gatherFromRegistries(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        _ gathering: inout Gathering
    ) -> Bool {
        state.hives.withUnsafeBufferPointer { hives in
            gathering.cached.reserveCapacity(count(of: key, in: hives))
            var underLayers = false
            _ = forEachContribution(to: key, in: hives) { depth, entry, instance in
                switch decide(entry, instance, depth, key, &layers, mayCache: mayCache, async: async) {
                case .cached(let instance):
                    gathering.cached.append(instance.takeUnretainedValue())
                case .resolve:
                    let seen = instance.map { Found.Seen.instance($0.takeUnretainedValue()) } ?? .nothing
                    let found = Found(entry: entry.takeUnretainedValue(), depth: depth, layer: -1, seen: seen)
                    let position = gathering.cached.count + gathering.pending.count
                    gathering.pending.append(Gathering.Pending(position: position, found: found))
                case .notSendable:
                    gathering.failure = .notSendable(entry.takeUnretainedValue())
                    return false
                case .underLayers:
                    underLayers = true
                    return false
                }
                return true
            }
            return !underLayers
        }
    }

    /// What the collection lookup without override layers does with one contribution.
    enum Decision {
        /// Its cached instance serves this resolve as it is.
        case cached(Unmanaged<Instance>)
        /// It is to be resolved, by the single resolve's steps.
        case resolve
        /// The resolve requires `Sendable`, and the contribution is not sure its instances are.
        case notSendable
        /// Its instance was built from another family's services, and the current task has override layers.
        case underLayers
    }

    /// The decision for the contribution `entry` of the hive at `depth`, whose slot holds `instance`, read under the
    /// family lock: the single lookup's, with `isUsable`, for a lineage without override layers.
    private func decide(
        _ entry: Unmanaged<Entry>, _ instance: Unmanaged<Instance>?, _ depth: Int, _ key: RegistrationKey,
        _ layers: inout Layers, mayCache: Bool = true, async: Bool
    ) -> Decision {
        let (unsure, lifetime, isAsync) = entry._withUnsafeGuaranteedRef {
            (key.requiresSendable && $0.unsureSendable, $0.lifetime, $0.isAsync)
        }
        if unsure { return .notSendable }
        guard mayCache, let instance else { return .resolve }
        let crosses = instance._withUnsafeGuaranteedRef { $0.dependencies.crossesFamilies }
        if !layers.isRead, crosses, case .nowhere = placement(of: .collection, under: layers.read()) {
            return .underLayers
        }
        return isUsable(lifetime, isAsync, depth: depth, layers: layers, async: async) ? .cached(instance) : .resolve
    }

    /// How many contributions to the collection `key` the hives of this lineage have.
    private func count(of key: RegistrationKey, in hives: UnsafeBufferPointer<HiveState>) -> Int {
        var total = 0
        for id in lineage {
            guard let bucket = hives[id.index].registry.services.index(of: key.service) else { continue }
            total += hives[id.index].registry.services[bucket: bucket].variants.count
        }
        return total
    }

    /// Calls `body` with each contribution to the collection `key` of the hives of this lineage, root first, each
    /// hive's in the order they were made, until it returns `false`: the depth of its hive, its entry, and the instance
    /// its slot holds. They are read in place and unretained, as `Registry.peek` reads one record, so valid while the
    /// family lock is held: copied out, each record's references would be retained and released.
    ///
    /// - Returns: Whether `body` saw every contribution.
    private func forEachContribution(
        to key: RegistrationKey, in hives: UnsafeBufferPointer<HiveState>,
        _ body: (Int, Unmanaged<Entry>, Unmanaged<Instance>?) -> Bool
    ) -> Bool {
        for depth in lineage.indices.reversed() {
            let registry = hives[lineage[depth].index].registry
            guard let bucket = registry.services.index(of: key.service) else { continue }
            for index in registry.services[bucket: bucket].variants.indices {
                let entry = Unmanaged.passUnretained(registry.services[bucket: bucket].variants[index].entry)
                let instance = registry.services[bucket: bucket].variants[index].slot.instance.map(
                    Unmanaged.passUnretained)
                guard body(depth, entry, instance) else { return false }
            }
        }
        return true
    }

    /// The collection lookup under the current task's override layers: which contributions the layers add or hide on
    /// each hive, then the one lookup of each.
    ///
    /// A layer's `replaceContributions(of:)` for a hive hides that hive's own contributions and its ancestors', and
    /// those that outer layers add to them. A strict layer's hive is as far as the collection is read, as it is as
    /// far as a single lookup goes: the contributions of that hive and of its ancestors are hidden, and the layers must
    /// contribute to it or replace it there, or the resolve fails.
    private func gatherUnderLayers(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        _ gathering: inout Gathering
    ) {
        guard let stack = layers.innermost else { return }
        // Nearest first: what the layers declare for each hive, up to the first strict one.
        var declared: [(contributions: [(entry: Entry, depth: Int)], replacedAt: Int)] = []
        var strictDepth: Int?
        for depth in lineage.indices {
            let hive = Override.Hive(family: familyID, id: lineage[depth])
            declared.append(stack.collection(key.service, on: hive))
            if stack.isStrict(on: hive) {
                guard !declared[depth].contributions.isEmpty || declared[depth].replacedAt >= 0 else {
                    gathering.failure = .notOverridden
                    return
                }
                strictDepth = depth
                break
            }
        }
        // The layer depth from which the layers' contributions to each hive show: a replacement for it or for a hive
        // nearer the asking one hides the hive's own and the outer layers'.
        var shownFrom = declared.map(\.replacedAt)
        for depth in shownFrom.indices.dropFirst() { shownFrom[depth] = max(shownFrom[depth], shownFrom[depth - 1]) }
        var entries: [Entry] = []
        for depth in declared.indices.reversed() {
            if shownFrom[depth] < 0, depth != strictDepth {
                entries += state.hives[lineage[depth].index].registry.contributions(in: key.service)
            }
            entries += declared[depth].contributions.filter { $0.depth >= shownFrom[depth] }.map(\.entry)
        }
        gathering.cached.reserveCapacity(entries.count)
        for entry in entries {
            switch lookUp(
                entry.key, in: state, layers: &layers, argumentsMatch: { $0.isEmpty }, mayCache: mayCache, async: async)
            {
            case .cached(let instance):
                gathering.cached.append(instance.takeUnretainedValue())
            case .found(let match):
                let position = gathering.cached.count + gathering.pending.count
                gathering.pending.append(Gathering.Pending(position: position, found: match.retained()))
            case .notSendable:
                gathering.failure = .notSendable(entry)
                return
            case .missing, .released, .notOverridden:
                // Not under the lock that found the key: every key gathered is answered by its own entry.
                continue
            case .moveProvisions:
                preconditionFailure("a collection is gathered through `family`, which moved the provisions")
            }
        }
    }

    // MARK: - Resolving what the cache did not answer

    /// The contributions, the cached ones' values and the others resolved on this thread by the single resolve's
    /// steps, in the collection's order, as one top-level resolve, or one node of this thread's trace.
    ///
    /// The collection is on the chain while its contributions are resolved, so that their errors name it, and their
    /// `.graph` instances are shared. While a shared construction records what it uses, the collection's key is
    /// recorded too: an instance built from a collection belongs to the override layer that adds to it or replaces it.
    private func resolveEach<Service>(
        _ gathering: Gathering, _ key: RegistrationKey, _ collection: Entry, _ layers: inout Layers,
        _ isTraced: Bool, _ context: ThreadContext
    ) throws(ServiceHiveError) -> [Service] {
        if let failure = gathering.failure { throw failure.error(collection.serviceKey, chain: context.chainKeys()) }
        if context.isRecording { context.record(Dependency(family: familyID, key: key, searched: lineage, entry: nil)) }
        var all: [Service] = []
        all.reserveCapacity(gathering.cached.count + gathering.pending.count)
        guard !gathering.pending.isEmpty else {
            for instance in gathering.cached { all.append(instance.value()) }
            return all
        }
        if let refusal = context.refusal(toBuild: collection) { throw refusal }
        context.push(collection)
        defer { context.pop() }
        var cached = gathering.cached.makeIterator()
        // The positions of the lookup taken so far, a removed contribution's too: `all.count` would trail them once
        // one is left out, and pull the cached values after it ahead of the next one resolved.
        var taken = 0
        for pending in gathering.pending {
            while taken < pending.position, let instance = cached.next() {
                all.append(instance.value())
                taken += 1
            }
            taken += 1
            let found = pending.found
            do throws(ServiceHiveError) {
                all.append(try resolveFound(found, found.entry.key, nil, { [] }, { $0.isEmpty }, &layers, isTraced))
            } catch .notRegistered(let missed, _) where missed.name == found.entry.key.name {
                // Removed since the lookup, while this resolve waited for another thread to build it: as if the
                // lookup had come after the removal.
                continue
            }
        }
        while let instance = cached.next() { all.append(instance.value()) }
        return all
    }

    /// The contributions, the cached ones' values and the others resolved in this task by the single async resolve, in
    /// the collection's order; the collection is on the chain meanwhile, as for a synchronous resolve.
    nonisolated(nonsending) private func resolveEachAsync<Service>(
        _ gathering: Gathering, _ key: RegistrationKey
    ) async throws(ServiceHiveError) -> [Service] {
        let outer = AsyncContext.current
        let collection = Entry(collectionOf: Service.self, site: ServiceHive.RegistrationSite(fileID: "", line: 0))
        do throws(ServiceHiveError) {
            if let failure = gathering.failure {
                throw failure.error(collection.serviceKey, chain: outer?.chainKeys() ?? [])
            }
            let context = outer ?? .root()
            context.record(Dependency(family: familyID, key: key, searched: lineage, entry: nil))
            let cached = gathering.cached
            guard !gathering.pending.isEmpty else { return cached.map { $0.value() } }
            if let refusal = context.refusal(toBuild: collection) { throw refusal }
            let keys = gathering.pending.map { (position: $0.position, key: $0.found.entry.key) }
            let resolved = await AsyncContext.$current.withValue(context.child(building: collection, pending: nil)) {
                () async -> Result<[Service], ServiceHiveError> in
                var all: [Service] = []
                all.reserveCapacity(cached.count + keys.count)
                var next = cached.startIndex
                var taken = 0  // The positions taken so far, as for a synchronous resolve.
                for (position, key) in keys {
                    while taken < position, next < cached.endIndex {
                        all.append(cached[next].value())
                        next += 1
                        taken += 1
                    }
                    taken += 1
                    do throws(ServiceHiveError) {
                        let value: Service = try await resolveAsync(key)
                        all.append(value)
                    } catch .notRegistered(let missed, _) where missed.name == key.name {
                        continue  // Removed since the lookup, as for a synchronous resolve.
                    } catch {
                        return .failure(error)
                    }
                }
                return .success(all + cached[next...].map { $0.value() })
            }
            return try resolved.get()
        } catch {
            if outer == nil { family.withLock { $0.diagnostics.failure }?(error) }
            throw error
        }
    }
}

// MARK: - A registry's contributions

extension Registry {
    /// This registry's contributions to the collection whose key space is `service`, in the order they were made.
    func contributions(in service: ObjectIdentifier) -> [Entry] {
        guard let bucket = services.index(of: service) else { return [] }
        return services[bucket: bucket].variants.map(\.entry)
    }

    /// This registry's contributions to the collection of `Element`, in the order they were made.
    func contributions<Element>(of _: Element.Type) -> [Entry] {
        contributions(in: RegistrationKey.collectionService(of: Element.self))
    }

    /// This registry's contribution named `name` to the collection that `entry` contributes to, if any.
    func contribution(named name: String, like entry: Entry) -> Record? {
        guard let bucket = services.index(of: entry.key.service) else { return nil }
        return services[bucket: bucket].variants.first { $0.entry.contributionName == name }
    }
}
