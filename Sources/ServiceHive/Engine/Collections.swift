// A resolve of a collection: every contribution to it, in order, found by one lookup under the family lock, beside
// `Lookup.swift`'s lookup of one key. The instances cached where this resolve may use them are copied before unlocking;
// every other contribution is resolved after unlocking by the single resolve's steps (`Resolution.swift`), so that
// building, waiting, publishing, ownership, recording, tracing and errors are those of a single resolve.
//
// The order: a hive's own contributions in the order they were made (`Registry.Registrations.variants` keeps them in
// it), the root's first and the asking hive's last; after each hive's, the contributions that override layers add to
// that hive, the outermost layer's first, each layer's in the order declared.

/// What the collection lookup found, under the family lock: the values of the cached instances that the resolve may use
/// as they are, and the contributions left to resolve, each with its place in the collection.
struct Gathered<Service> {
    /// The cached values, in the collection's order.
    var values: [Service] = []
    /// The contributions to resolve, in the collection's order, each with its index in the collection.
    var pending: [(position: Int, found: Found)] = []
    /// Why the collection cannot be resolved, found under the lock; thrown after unlocking.
    var failure: Failure?

    /// How many contributions the collection has so far.
    var count: Int { values.count + pending.count }

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

extension HiveCore {
    // MARK: - The entry points

    /// Resolves every contribution to the collection `key` as a `Service`, in order: every `resolveAll` comes here.
    /// `key` is the collection's key, `RegistrationKey(collectionOf: Service.self, name: nil)`.
    ///
    /// It takes the family lock once, and when every contribution's instance is cached where this resolve may use it,
    /// returns their values copied under it: one lookup, not one per element (`Benchmarks/count-instructions 27`).
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
        var gathered = Gathered<Service>()
        let state = family.lock()
        let isTraced = state.pointee.diagnostics.trace != nil
        gather(key, in: state.pointee, layers: &layers, mayCache: mayCache && !isTraced, async: false, into: &gathered)
        family.unlock()
        if mayCache, !isTraced, gathered.failure == nil, gathered.pending.isEmpty { return gathered.values }
        return try resolveAll(gathered, key, &layers, isTraced)
    }

    /// Resolves every contribution to the collection `key` as a `Service`, in order, awaiting async factories: every
    /// `resolveAllAsync` comes here.
    nonisolated(nonsending) func resolveAllAsync<Service>(_ key: RegistrationKey) async throws(ServiceHiveError)
        -> [Service]
    {
        // Cached values serve it as `resolveAsync`'s quick path says: unless a construction in this task records.
        let mayCache = AsyncContext.recordingCurrent == nil
        var layers = Layers.unread
        var gathered = Gathered<Service>()
        let state = family.lock()
        gather(key, in: state.pointee, layers: &layers, mayCache: mayCache, async: true, into: &gathered)
        family.unlock()
        if mayCache, gathered.failure == nil, gathered.pending.isEmpty { return gathered.values }
        return try await resolveAllAsync(gathered, key)
    }

    // MARK: - The collection lookup

    /// Finds the contributions to the collection `key` as this hive sees them, with the family lock held: for each,
    /// its cached value when `mayCache` and this resolve may use it as it is, or else what a single resolve of it
    /// needs.
    ///
    /// Without override layers in the current task, it reads each hive's contributions in place, in one pass, and
    /// decides on a cached instance with the single lookup's `isUsable`. Under layers, it asks the one lookup,
    /// `lookUp(_:in:layers:argumentsMatch:mayCache:async:)`, of each contribution's key, so that what a layer keeps,
    /// owns or overrides is decided by the same rules as for a single resolve.
    func gather<Service>(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        into gathered: inout Gathered<Service>
    ) {
        if !layers.isRead, state.liveLayers != 0 { _ = layers.read() }
        guard state.hives[lineage[lineage.startIndex].index].isLive(lineage[lineage.startIndex]) else {
            gathered.failure = .released
            return
        }
        if layers.stack == nil,
            gatherFromRegistries(key, in: state, layers: &layers, mayCache: mayCache, async: async, into: &gathered)
        {
            return
        }
        gathered = Gathered()
        gatherUnderLayers(key, in: state, layers: &layers, mayCache: mayCache, async: async, into: &gathered)
    }

    /// The collection lookup without override layers: each hive's contributions, root first, read in place.
    ///
    /// - Returns: `false` when a cached instance, built from another family's services, made it read the task's layers
    ///   and there are some: the caller then gathers under them.
    private func gatherFromRegistries<Service>(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        into gathered: inout Gathered<Service>
    ) -> Bool {
        // Through a buffer pointer, the registries are read in place; through the array, each would be copied.
        state.hives.withUnsafeBufferPointer { hives in
            for depth in lineage.indices.reversed() {
                let registry = hives[lineage[depth].index].registry
                guard let bucket = registry.services.index(of: key.service) else { continue }
                let count = registry.services[bucket: bucket].variants.count
                gathered.values.reserveCapacity(gathered.count + count)
                for position in 0..<count {
                    let entry = Unmanaged.passUnretained(registry.services[bucket: bucket].variants[position].entry)
                    let instance = registry.services[bucket: bucket].variants[position].slot.instance.map(
                        Unmanaged.passUnretained)
                    let (unsure, lifetime, isAsync) = entry._withUnsafeGuaranteedRef {
                        (key.requiresSendable && $0.unsureSendable, $0.lifetime, $0.isAsync)
                    }
                    if unsure {
                        gathered.failure = .notSendable(entry.takeUnretainedValue())
                        return true
                    }
                    if mayCache, let instance {
                        let crosses = instance._withUnsafeGuaranteedRef { $0.dependencies.crossesFamilies }
                        if !layers.isRead, crosses, layers.read() != nil { return false }
                        if isUsable(lifetime, isAsync, depth: depth, layers: layers, async: async) {
                            gathered.values.append(cachedValue(instance))
                            continue
                        }
                    }
                    let seen = instance.map { Found.Seen.instance($0.takeUnretainedValue()) } ?? .nothing
                    let found = Found(entry: entry.takeUnretainedValue(), depth: depth, layer: -1, seen: seen)
                    gathered.pending.append((gathered.count, found))
                }
            }
            return true
        }
    }

    /// The collection lookup under the current task's override layers: which contributions the layers add or hide on
    /// each hive, then the one lookup of each.
    ///
    /// A layer's `replaceContributions(of:)` for a hive hides that hive's own contributions and its ancestors', and
    /// those that outer layers add to them. A strict layer's hive is as far as the collection is read, as it is as
    /// far as a single lookup goes: the contributions of that hive and of its ancestors are hidden, and the layers must
    /// contribute to it or replace it there, or the resolve fails.
    private func gatherUnderLayers<Service>(
        _ key: RegistrationKey,
        in state: borrowing HiveFamily,
        layers: inout Layers,
        mayCache: Bool,
        async: Bool,
        into gathered: inout Gathered<Service>
    ) {
        guard let stack = layers.stack else { return }
        // Nearest first: what the layers declare for each hive, up to the first strict one.
        var declared: [(contributions: [(entry: Entry, depth: Int)], replacedAt: Int)] = []
        var strictDepth: Int?
        for depth in lineage.indices {
            let hive = Override.Hive(family: familyID, id: lineage[depth])
            declared.append(stack.collection(key.service, on: hive))
            if stack.isStrict(on: hive) {
                guard !declared[depth].contributions.isEmpty || declared[depth].replacedAt >= 0 else {
                    gathered.failure = .notOverridden
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
        gathered.values.reserveCapacity(entries.count)
        for entry in entries {
            switch lookUp(
                entry.key, in: state, layers: &layers, argumentsMatch: { $0.isEmpty }, mayCache: mayCache, async: async)
            {
            case .cached(let instance):
                gathered.values.append(cachedValue(instance))
            case .found(let match):
                gathered.pending.append((gathered.count, match.retained()))
            case .notSendable:
                gathered.failure = .notSendable(entry)
                return
            case .missing, .released, .notOverridden:
                // Not under the lock that found the key: every key gathered is answered by its own entry.
                continue
            }
        }
    }

    // MARK: - Resolving what the cache did not answer

    /// Resolves the contributions that the collection lookup left, on this thread, each by the single resolve's steps,
    /// between the cached values, as one top-level resolve, or one node of this thread's trace.
    ///
    /// The collection is on the chain while its contributions are resolved, so that their errors name it, and their
    /// `.graph` instances are shared. While a shared construction records what it uses, the collection's key is
    /// recorded too: an instance built from a collection belongs to the override layer that adds to it or replaces it.
    @inline(never)
    private func resolveAll<Service>(
        _ gathered: Gathered<Service>, _ key: RegistrationKey, _ layers: inout Layers, _ isTraced: Bool
    ) throws(ServiceHiveError) -> [Service] {
        let context = ThreadContext.current
        let collection = Entry(collectionOf: Service.self, site: ServiceHive.RegistrationSite(fileID: "", line: 0))
        if isTraced || context.isTracing {
            return try reporting(collection.serviceKey, context) { () throws(ServiceHiveError) in
                try resolveEach(gathered, key, collection, &layers, isTraced, context)
            }
        }
        return try topLevel(context) { () throws(ServiceHiveError) in
            try resolveEach(gathered, key, collection, &layers, isTraced, context)
        }
    }

    /// The contributions, the cached values and the ones resolved here, in the collection's order.
    private func resolveEach<Service>(
        _ gathered: Gathered<Service>, _ key: RegistrationKey, _ collection: Entry, _ layers: inout Layers,
        _ isTraced: Bool, _ context: ThreadContext
    ) throws(ServiceHiveError) -> [Service] {
        if let failure = gathered.failure { throw failure.error(collection.serviceKey, chain: context.chainKeys()) }
        if context.isRecording { context.record(Dependency(family: familyID, key: key, searched: lineage, entry: nil)) }
        guard !gathered.pending.isEmpty else { return gathered.values }
        if let refusal = context.refusal(toBuild: collection) { throw refusal }
        context.push(collection)
        defer { context.pop() }
        var all: [Service] = []
        all.reserveCapacity(gathered.count)
        var cached = gathered.values[...]
        for (position, found) in gathered.pending {
            while all.count < position, let value = cached.popFirst() { all.append(value) }
            do throws(ServiceHiveError) {
                all.append(
                    try resolveFound(found, found.entry.key, nil, { [] }, { $0.isEmpty }, &layers, isTraced))
            } catch .notRegistered(let missed, _) where missed.name == found.entry.key.name {
                // Removed since the lookup, while this resolve waited for another thread to build it: as if the
                // lookup had come after the removal.
                continue
            }
        }
        all += cached
        return all
    }

    /// Resolves the contributions that the collection lookup left, in this task, each by the single async resolve,
    /// between the cached values; the collection is on the chain meanwhile, as for a synchronous resolve.
    nonisolated(nonsending) private func resolveAllAsync<Service>(
        _ gathered: Gathered<Service>, _ key: RegistrationKey
    ) async throws(ServiceHiveError) -> [Service] {
        let outer = AsyncContext.current
        let collection = Entry(collectionOf: Service.self, site: ServiceHive.RegistrationSite(fileID: "", line: 0))
        do throws(ServiceHiveError) {
            if let failure = gathered.failure {
                throw failure.error(collection.serviceKey, chain: outer?.chainKeys() ?? [])
            }
            let context = outer ?? .root()
            context.record(Dependency(family: familyID, key: key, searched: lineage, entry: nil))
            guard !gathered.pending.isEmpty else { return gathered.values }
            if let refusal = context.refusal(toBuild: collection) { throw refusal }
            let keys = gathered.pending.map { (position: $0.position, key: $0.found.entry.key) }
            let values = gathered.values
            let resolved = await AsyncContext.$current.withValue(context.child(building: collection, pending: nil)) {
                () async -> Result<[Service], ServiceHiveError> in
                var all: [Service] = []
                all.reserveCapacity(values.count + keys.count)
                var cached = values[...]
                for (position, key) in keys {
                    while all.count < position, let value = cached.popFirst() { all.append(value) }
                    do throws(ServiceHiveError) {
                        let value: Service = try await resolveAsync(key)
                        all.append(value)
                    } catch .notRegistered(let missed, _) where missed.name == key.name {
                        continue  // Removed since the lookup, as for a synchronous resolve.
                    } catch {
                        return .failure(error)
                    }
                }
                return .success(all + cached)
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
        contributions(in: ObjectIdentifier(Contribution<Element>.self))
    }

    /// This registry's contribution named `name` to the collection that `entry` contributes to, if any.
    func contribution(named name: String, like entry: Entry) -> Record? {
        guard let bucket = services.index(of: entry.key.service) else { return nil }
        return services[bucket: bucket].variants.first { $0.entry.contributionName == name }
    }
}
