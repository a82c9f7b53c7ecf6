/// A registry that maps service protocols to the factories that build them.
///
/// Business modules register implementations against protocols at startup; callers resolve a service by its
/// protocol alone; tests swap implementations with ``withOverrides(strict:_:operation:)``.
///
/// ```swift
/// let hive = ServiceHive()
/// try hive.register(TradeService.self, scope: .singleton) { LiveTradeService() }
///
/// let trade: any TradeService = try hive.resolve()
/// ```
///
/// A hive is `Sendable`. Any mix of registering, unregistering and resolving from any threads and tasks is safe:
/// one lock, shared by a hive and its descendants, guards the registrations, and it is never held while your
/// factories run. A `.singleton` is built exactly once, even when many threads ask for it at the same moment.
///
/// Every throwing method is declared `throws`, and everything it throws is a ``ServiceHiveError``.
public final class ServiceHive: Sendable {
    /// The process-wide hive.
    ///
    /// Code that has no hive passed to it resolves from here. In tests, swap its services with
    /// ``withOverrides(strict:_:operation:)`` rather than re-registering: overrides are visible only to the task
    /// that made them and its child tasks, so tests running in parallel don't see each other's mocks.
    public static let shared = ServiceHive()

    /// The most factories that may be nested inside one another in a single resolve: 1,024.
    ///
    /// A resolve that would go deeper fails with ``ServiceHiveError/resolutionTooDeep(_:chain:limit:)`` instead of
    /// exhausting the thread's stack. Real object graphs are far shallower; hitting the limit almost always means a
    /// chain of factories that never ends.
    public static let maximumResolutionDepth = 1024

    /// The hive this one falls back to when it has no registration of its own, or `nil` for a root hive.
    public let parent: ServiceHive?

    /// A resolver that resolves from this hive, as its factories' resolvers do. Like theirs, it does not keep the hive
    /// alive.
    ///
    /// Stored, so that the inlinable resolve methods of ``Resolving`` read it from a resolve's caller without a call.
    public let resolver: Resolver

    /// Creates an empty, independent hive.
    public init() {
        parent = nil
        resolver = Resolver(core: HiveCore(family: Locked(HiveFamily()), parent: nil))
    }

    /// Creates an empty hive that falls back to `parent`.
    ///
    /// A child looks in its own registrations first, then in its parent's, and so on up. Its registrations shadow
    /// the parent's, and the parent never sees them. A parent's `.singleton` is shared with all its children, and is
    /// always built from the parent's registrations, so it never captures a child's services. To make a child for
    /// one request, with a few instances and no `try`, use ``child(_:)``.
    ///
    /// ```swift
    /// let request = ServiceHive(parent: .shared)
    /// try request.register(Session.self, instance: session)
    /// let cart = try request.resolve(Cart.self)  // a shared Cart factory, built with this request's Session
    /// ```
    ///
    /// - Parameter parent: The hive to fall back to.
    public convenience init(parent: ServiceHive) {
        self.init(parent: parent, provided: [])
    }

    /// Creates a hive that falls back to `parent`, with the instances `provided` (`Provision.swift`).
    init(parent: ServiceHive, provided: [Provision]) {
        self.parent = parent
        resolver = Resolver(core: HiveCore(family: parent.family, parent: parent.core, provided: provided))
    }

    deinit {
        // Resolvers kept by instances find this hive gone from now on. Its instances are released here, outside the
        // lock: a `deinit` among them may resolve, and gets `hiveReleased` if it resolves through this hive. The lock is
        // taken as it is: `family` would first move a child's provisions into the registry this empties.
        let core = core
        let (registry, modules, provisions) = core.sharedFamily.withLock { state in
            core.providedMoved.store(true, ordering: .releasing)
            let provisions = core.hasProvisions ? state.takeProvisions(for: core.id) : nil
            let (registry, modules) = state.removeHive(core.id)
            return (registry, modules, provisions)
        }
        registry.destroy()  // Records, instances and modules, released outside the lock.
        withExtendedLifetime((modules, provisions)) {}
    }

    /// The state of this hive's family, shared with its parent and children.
    var family: Locked<HiveFamily> { core.family }

    /// This hive and its ancestors, nearest first.
    var lineage: Lineage { core.lineage }

    /// This hive's identity in its family.
    var id: HiveID { core.id }

    /// What resolving from this hive needs, shared with its resolvers.
    var core: HiveCore { resolver.core }
}

extension ServiceHive: ServiceHive.Resolving {}
