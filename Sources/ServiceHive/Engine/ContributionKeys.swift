// A contribution is a registration in a key space of its own for each collection, so that contributions are stored,
// removed, rolled back, overridden and validated as registrations are, and never meet a registration of their service.
// Each contribution is a variant of that key space with a name that no other entry has (`ContributionNames`); the key
// without a name stands for the collection itself.

extension RegistrationKey {
    /// The key of the collection of `Element`, without a name, or of one contribution to it, with the contribution's
    /// own name.
    init<Element>(collectionOf _: Element.Type, name: String?, requiresSendable: Bool = false) {
        service = Self.collectionService(of: Element.self)
        self.name = name
        arguments = nil
        self.requiresSendable = requiresSendable
    }

    /// The service of the collection of `Element`: the identifier of `Element` with its lowest bit set, which no type's
    /// or object's identifier has, since metadata and objects are aligned. So it is a key space of its own for each
    /// collection, and telling it costs a bit operation: the identifier of a generic type such as `Contribution<Element>`
    /// is its metadata, which unspecialized code looks up in the runtime's cache on every resolve of the collection
    /// (`Benchmarks/count-instructions 28`: 358 instructions of 4,154, when measured).
    static func collectionService<Element>(of _: Element.Type) -> ObjectIdentifier {
        unsafeBitCast(UInt(bitPattern: ObjectIdentifier(Element.self)) | 1, to: ObjectIdentifier.self)
    }
}

/// The names that tell contributions apart in their collection's key space, one per contribution, unique in the process.
enum ContributionNames {
    /// The first character of every such name: a name given to a contribution may not start with it, so the two never
    /// meet.
    static let prefix: Character = "\u{0}"

    /// Guards, and only guards, the number of the next name.
    private static let next = Locked<UInt64>(0)

    /// A name that no contribution has had before.
    static func unique() -> String {
        let number = next.withLock { next in
            next += 1
            return next
        }
        return "\(prefix)\(number)"
    }
}
