/// A type that the hive makes itself when it is resolved and not registered: `Lazy` and `Provider`.
protocol DeferredService {
    /// The deferred resolve of the service it wraps. `key` is its own key: the service's has the same name, and
    /// requires `Sendable` when it does, which only a `Sendable` service makes it do.
    static func deferred(from core: HiveCore, key: RegistrationKey) -> Self
}
