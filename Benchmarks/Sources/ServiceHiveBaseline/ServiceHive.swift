/// A registry that maps service protocols to the factories that build them.
///
/// Business modules register implementations against protocols at startup; callers resolve a service by its
/// protocol alone; tests swap implementations with ``withOverrides(_:operation:)-(_,()->Result)``.
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
public final class ServiceHive: Sendable {
    /// The process-wide hive.
    ///
    /// Code that has no hive passed to it resolves from here. In tests, swap its services with
    /// ``withOverrides(_:operation:)-(_,()->Result)`` rather than re-registering: an override is visible only to
    /// the task that made it and its child tasks, so tests running in parallel don't see each other's mocks.
    public static let shared = ServiceHive()

    /// The most factories that may be nested inside one another in a single resolve: 1,024.
    ///
    /// A resolve that would go deeper fails with ``ServiceHiveError/resolutionTooDeep(_:chain:limit:)`` instead of
    /// exhausting the thread's stack. Real object graphs are far shallower; hitting the limit almost always means a
    /// chain of factories that never ends.
    public static let maximumResolutionDepth = 1024

    /// The hive this one falls back to when it has no registration of its own, or `nil` for a root hive.
    public let parent: ServiceHive?

    /// Keeps the family's lock and counters alive.
    let family: HiveFamily
    /// The lock, counters and registry, inline.
    let state: HiveState
    /// The installed modules.
    let modules = ModuleList()

    /// Creates an empty, independent hive.
    public init() {
        parent = nil
        family = HiveFamily()
        state = HiveState(family: family)
    }

    /// Creates an empty hive that falls back to `parent`.
    ///
    /// A child looks in its own registrations first, then in its parent's, and so on up. Its registrations shadow
    /// the parent's, and the parent never sees them. A parent's `.singleton` is shared with all its children, and is
    /// always built from the parent's registrations, so it never captures a child's services.
    ///
    /// ```swift
    /// let request = ServiceHive(parent: .shared)
    /// try request.register(Session.self, instance: session)
    /// let cart = try request.resolve(Cart.self)  // a shared Cart factory, built with this request's Session
    /// ```
    ///
    /// - Parameter parent: The hive to fall back to.
    public init(parent: ServiceHive) {
        self.parent = parent
        family = parent.family
        state = HiveState(family: family)
    }

    deinit {
        // No other reference exists, so no lock is needed; the entries are released outside any lock.
        state.registry.deinitialize(count: 1)
        state.registry.deallocate()
    }
}
