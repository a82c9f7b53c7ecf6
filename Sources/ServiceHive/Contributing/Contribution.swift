/// The service under which the contributions to the collection of `Element` are registered: a key space of its own for
/// each collection, so that contributions are stored, removed, rolled back, overridden and validated as registrations
/// are, and never meet a registration of `Element` itself. Never instantiated.
///
/// Each contribution is a variant of this service with a name that no other entry has (`ContributionNames`); the key
/// without a name stands for the collection itself.
enum Contribution<Element> {}

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
