// What a child hive made by `ServiceHive.child(_:)` was given. A request's hive is made, resolved from a few times and
// released, so its instances stay on its core, as they were given, rather than becoming registrations: a registration
// costs an entry, a record and a table, made with the child and destroyed with it (`Benchmarks/count-instructions 12`:
// 6,547 instructions as registrations). The lookup answers them from the core (`Lookup.swift`). Anything else that
// reads or changes the child's registrations reads `HiveCore.family`, which moves them into its registry first, once.

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

extension HiveCore {
    /// The answer of the provisions kept on this child's core for `key`, with the family lock held: the instance, as
    /// its registration's cached instance would be, or `.notSendable`; `.moveProvisions` when the resolve may not take
    /// a cached instance as it is, since it records or traces what it finds, or the task has override layers: what it
    /// finds must then be a registration, as the recording, the trace and the layers expect. `nil` when they hold
    /// nothing for `key`, or have moved. Out of line, so that the lookup of a hive without provisions pays one
    /// comparison.
    @inline(never)
    func answerFromProvisions(_ key: RegistrationKey, mayCache: Bool, layers: Layers) -> LookupAnswer? {
        guard keepsProvisions, key.arguments == nil else { return nil }
        guard mayCache, layers.innermost == nil else { return .moveProvisions }
        guard let provision = provided.first(where: { $0.key == key }) else { return nil }
        if key.requiresSendable, provision.unsureSendable { return .notSendable }
        return .cached(Unmanaged.passUnretained(provision.box))
    }

    /// The registrations a miss names beside the provisions kept on this child's core: theirs, for the service.
    func providedCandidates(for service: ObjectIdentifier) -> [Entry] {
        guard keepsProvisions else { return [] }
        return provided.lazy.filter { $0.key.service == service }.map { $0.entry() }
    }

    /// Whether this hive keeps provisions on its core, not in its registry. With the family lock held.
    var keepsProvisions: Bool { !provided.isEmpty && !providedMoved.load(ordering: .relaxed) }

    /// Moves the provisions into this hive's registry, as registrations of their instances, in the order and with
    /// the places in the family's registration order they were given: once, with the family lock held. A released
    /// hive's are left on the core, which releases them.
    func moveProvisions(in state: inout HiveFamily) {
        guard keepsProvisions else { return }
        providedMoved.store(true, ordering: .releasing)
        guard state.isLive(id) else { return }
        for (offset, provision) in provided.enumerated() {
            // The registry holds nothing else yet: registering in this hive reads `family`, which moved these first.
            state.hives[id.index].registry.insert(
                Record(entry: provision.entry(), sequence: firstProvidedSequence + UInt64(offset)))
        }
    }
}
