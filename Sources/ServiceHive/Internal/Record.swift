/// A registration in a hive, with what the hive keeps for it between resolves.
struct Record: Sendable {
    let entry: Entry
    /// The registration order in the hive family, for stable listings.
    let sequence: UInt64
    /// The cached instance of a shared scope; from the start, the instance of `register(_:name:instance:)`.
    var slot: Slot

    init(entry: Entry, sequence: UInt64) {
        self.entry = entry
        self.sequence = sequence
        slot = entry.instance.map { Slot.instance($0) } ?? .empty
    }

    /// A transient's entry, or a singleton's instance cached beside it, or `.detailed` for everything else.
    @inline(__always)
    func quickLookUp(async: Bool) -> QuickLookup {
        switch entry.lifetime {
        case .transient:
            return .transient(entry)
        case .shared:
            guard let instance = slot.instance else { return .detailed(.unknown) }
            return .cached(.passUnretained(instance))
        case .graph:
            return .graph(entry, depth: 0)
        case .forward:
            return .detailed(.unknown)
        case .async where async:
            guard let instance = slot.instance else { return .detailed(.unknown) }
            return .cached(.passUnretained(instance))
        case .weak, .async:
            return .detailed(.unknown)
        }
    }
}

/// What is cached for a shared registration, in a hive or in an override layer: nothing, a construction in progress,
/// or an instance. Read it through ``state``.
///
/// It is two optional references rather than an enum with two class payloads, because such an enum keeps its case in
/// the pointer's spare bits, where LeakSanitizer does not recognize the pointer: it would report every instance cached
/// in a live hive as leaked.
struct Slot: Sendable {
    private var cached: Instance?
    private var construction: Construction?

    /// Nothing is cached.
    static let empty = Slot(cached: nil, construction: nil)

    /// A thread or task is running the factory; others wait for it.
    static func building(_ construction: Construction) -> Slot { Slot(cached: nil, construction: construction) }

    /// The cached instance: a `Box<Service>`, or for `.weak` a `Box<WeakReference>`.
    static func instance(_ instance: Instance) -> Slot { Slot(cached: instance, construction: nil) }

    /// What the slot holds, to switch on.
    enum State {
        case empty
        case building(Construction)
        case instance(Instance)
    }

    @inline(__always)
    var state: State {
        if let construction { return .building(construction) }
        if let cached { return .instance(cached) }
        return .empty
    }

    /// The cached instance, if any.
    @inline(__always)
    var instance: Instance? { cached }

    var isEmpty: Bool { cached == nil && construction == nil }
}
