#if Vapor
public import ServiceHive
public import Vapor
import Synchronization

extension Request {
    /// The request's own hive: a child of the application's hive, made on first use, with what the request provides.
    ///
    /// ```swift
    /// app.get("cart") { request in
    ///     try request.hive.resolve(Cart.self).summary()  // built for this request's caller
    /// }
    /// ```
    ///
    /// The child provides ``VaporRequestInfo`` (the request's id, method, URL and headers), its `Logger`, and what the
    /// `provide` closure of ``Vapor/Application/useHive(_:modules:validation:provide:)`` adds, such as the caller's
    /// identity. It never provides the `Request` itself: the request keeps its hive, and a hive that kept the request
    /// would keep both alive after the response.
    /// A service that the application's hive registers with a factory that resolves one of these, such as a `Cart`
    /// that needs the `Caller`, resolves from the request's hive with this request's values; the application's hive
    /// never keeps an instance built from them. The child is released with the request. A route that never reads it
    /// pays nothing.
    ///
    /// - Throws: ``HiveVaporError/noHive`` when the application has no hive;
    ///   ``HiveVaporError/modulesNotRunning(_:)`` when its modules are not running, because it has not booted
    ///   asynchronously, its boot failed, or it has shut down.
    public var hive: ServiceHive {
        get throws {
            // Each read of `storage` takes the request's lock: the first use reads it twice and writes it once, where
            // a subscript's write reads it too (`VaporRequestHiveCost`, `hive`).
            if let made = storage.requestHive { return made }
            let configuration = try application.hiveConfiguration
            try configuration.lifecycle.checkRunning()
            let child = configuration.hive.child { provisions in
                provisions.provide(VaporRequestInfo.self, VaporRequestInfo(self))
                provisions.provide(Logger.self, self.logger)
                configuration.provide(self, &provisions)
            }
            // Two first reads at once, from tasks of one request, both make a child; the first kept is the one both
            // return, so the request has one hive. The lock makes the look and the keep one step.
            return RequestHiveKey.firstUse(of: self).mutex.withLock { _ in
                var current = storage
                if let made = current.requestHive { return made }
                current[RequestHiveKey.self] = child
                storage = current
                return child
            }
        }
    }
}

extension Storage {
    /// The hive a request keeps here, if it made one. Vapor's `Storage.get` looks a generic type's metadata up on every
    /// call, found or not: a miss, every request's first read, is told with `contains`, which doesn't
    /// (`VaporRequestHiveCost`, `hive`).
    fileprivate var requestHive: ServiceHive? {
        contains(RequestHiveKey.self) ? self[RequestHiveKey.self] : nil
    }
}

/// Where a request keeps its hive once made.
struct RequestHiveKey: StorageKey {
    typealias Value = ServiceHive

    /// The lock a request takes when it keeps the hive it made, once per request that reads its hive: it makes the
    /// look for a hive made meanwhile and the keeping one step. Guards no field; the request's storage is its own lock.
    ///
    /// One of 64, chosen by the request's address: one lock for every request would be a line of memory that every
    /// core serving requests writes in turn, where a request's hive is meant to scale with the cores.
    static func firstUse(of request: Request) -> FirstUseLock {
        // A multiplicative hash of the address, as the engine's tables hash identifiers: `hashValue` would run the
        // seeded hasher first, only for this to mix it again.
        let hash = UInt(bitPattern: ObjectIdentifier(request)) &* 0x9E37_79B9_7F4A_7C15
        return locks[Int(hash >> (UInt.bitWidth - 6))]
    }

    private static let locks = (0..<64).map { _ in FirstUseLock() }

    /// A lock of its own allocation, so that two of them rarely share a line of memory.
    final class FirstUseLock: Sendable {
        let mutex = Mutex(())
    }
}
#endif
