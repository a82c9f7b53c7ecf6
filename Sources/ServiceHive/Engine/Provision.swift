// What a child hive made by `ServiceHive.child(_:)` was given. A request's hive is made, resolved from a few times and
// released, so its instances are kept apart from its registry, as they were given, in the family's state beside its
// place, rather than becoming registrations: a registration costs an entry, a record and a table, made with the child
// and destroyed with it (`Benchmarks/count-instructions 12`: 6,547 instructions as registrations, 5,476 kept apart).
// The lookup answers them (`Lookup.swift`). Anything else that reads or changes the child's registrations takes the
// lock through `HiveCore.family`, which moves them into its registry first, once. ARCHITECTURE.md ("What a child was
// given") states what holds.

/// An instance given to a child hive, with what its registration would say.
struct Provision: Sendable {
    let key: RegistrationKey
    let box: Instance
    let site: ServiceHive.RegistrationSite
    let sendable: Sendability
    /// Whether a resolve that requires `Sendable` must refuse it, as it refuses its registration.
    let unsureSendable: Bool

    init<Service>(
        _: Service.Type, name: String?, box: Box<Service>, site: ServiceHive.RegistrationSite, sendable: Sendability
    ) {
        key = RegistrationKey(Service.self, name: name)
        self.box = box
        self.site = site
        self.sendable = sendable
        unsureSendable = sendable.isUnsure(for: Service.self)
    }

    /// Its registration: an entry that holds the instance, as `register(_:instance:)` makes.
    func entry() -> Entry { box.providedEntry(name: key.name, site: site, sendable: sendable) }
}

extension HiveFamily {
    /// Keeps `provisions` for the new child hive `id`: the child's registrations until they move into its registry.
    /// `reads` are its place's.
    mutating func keep(_ provisions: [Provision], for id: HiveID, reads: Unmanaged<HiveReads>) {
        // Read by index: a loop over the provisions copied each, with a retain and a release of its fields
        // (`Benchmarks/count-instructions 12`: 5,481 instructions, not 5,311).
        var bits: UInt64 = 0
        for index in provisions.indices {
            let service = provisions[index].key.service
            bits |= ServiceMask.bit(of: service)
            providedByChildren.update(service, empty: { true }) { _ in }
        }
        // A thread's answer for these services, found in the root, no longer holds from this child.
        reads._withUnsafeGuaranteedRef { $0.registers(bits: bits) }
        if self.provisions.count <= id.index {
            self.provisions += repeatElement(nil, count: id.index + 1 - self.provisions.count)
        }
        self.provisions[id.index] = provisions
    }

    /// Takes the provisions kept apart for the hive `id`, for the caller to register, or to release after unlocking.
    mutating func takeProvisions(for id: HiveID) -> [Provision]? {
        guard id.index < provisions.count else { return nil }
        return exchange(&provisions[id.index], with: nil)
    }
}

extension HiveCore {
    /// The answer of the provisions this child keeps apart for `key`, with the family lock held: the instance, as its
    /// registration's cached instance would be, or `.notSendable`; `.moveProvisions` when the resolve may not take a
    /// cached instance as it is, since it records or traces what it finds, or the task has override layers: what it
    /// finds must then be a registration, as the recording, the trace and the layers expect. `nil` when they hold
    /// nothing for `key`, or have moved. Out of line, so that the lookup of a hive without provisions pays one
    /// comparison.
    @inline(never)
    func answerFromProvisions(
        _ key: RegistrationKey, in kept: [[Provision]?], mayCache: Bool, layers: Layers
    ) -> LookupAnswer? {
        guard key.arguments == nil, id.index < kept.count, kept[id.index] != nil else { return nil }
        guard mayCache, layers.innermost == nil else { return .moveProvisions }
        // Read in place, with the lock held: a copy of the array and of the provision found took a retain and a
        // release of each (`Benchmarks/count-instructions 12`: 5,114 instructions, not 5,313).
        return kept.withUnsafeBufferPointer { kept in
            kept[id.index].unsafelyUnwrapped.withUnsafeBufferPointer { provisions in  // Not nil: checked above.
                guard let index = provisions.firstIndex(where: { $0.key == key }) else { return nil }
                if key.requiresSendable, provisions[index].unsureSendable { return .notSendable }
                // Unretained, as every lookup answers: the family's state holds it while the caller holds the lock.
                return .cached(Unmanaged.passUnretained(provisions[index].box))
            }
        }
    }

    /// The registrations a miss names beside the provisions this child keeps apart: theirs, for the service. With the
    /// family lock held.
    func providedCandidates(for service: ObjectIdentifier, in state: borrowing HiveFamily) -> [Entry] {
        guard hasProvisions, id.index < state.provisions.count, let provisions = state.provisions[id.index] else {
            return []
        }
        return provisions.filter { $0.key.service == service }.map { $0.entry() }
    }

    /// Moves the provisions this child keeps apart into its registry, as registrations of their instances, in the
    /// order they were given: once, with the family lock held. Their places in the family's registration order are
    /// taken now: only the order within one hive is ever read (`registrations`, `visibleRegistrations`, the graphs).
    func moveProvisions(in state: inout HiveFamily) {
        guard !providedMoved.load(ordering: .relaxed) else { return }
        providedMoved.store(true, ordering: .releasing)
        // There while `providedMoved` was false: the hive's `deinit` sets it before it takes them.
        guard let provisions = state.takeProvisions(for: id) else { return }
        for provision in provisions {
            // The registry holds nothing else yet: registering in this hive reads `family`, which moved these first.
            state.hives[id.index].registry.insert(Record(entry: provision.entry(), sequence: state.takeSequence()))
        }
    }
}
