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
}
