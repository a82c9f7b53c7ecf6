#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The least work a protocol-keyed locator can do: a pthread mutex around `[ObjectIdentifier: typed box]`, with
/// `unsafeDowncast` and no scopes, arguments, cycle detection or error checks. Named registrations, which only the
/// scenarios at scale use, are in a second dictionary, so that they cost the others nothing.
///
/// A "singleton" here is a closure returning a captured instance; a "transient" one builds a new instance. The
/// dictionary sits behind a pointer rather than in a class's `var`, so that Swift's dynamic exclusivity checks,
/// which would cost more than the lookup itself, don't flatter ServiceHive by slowing the floor.
final class Floor: @unchecked Sendable {
    // Sendable: `boxes` and `named` are only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let boxes: UnsafeMutablePointer<[ObjectIdentifier: AnyObject]>
    private let named: UnsafeMutablePointer<[NamedKey: AnyObject]>
    /// The collections, each the array of its elements, built once: what a hand-written list of implementations is.
    private let collections: UnsafeMutablePointer<[ObjectIdentifier: AnyObject]>

    struct NamedKey: Hashable {
        let service: ObjectIdentifier
        let name: String
    }

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        boxes = .allocate(capacity: 1)
        boxes.initialize(to: [:])
        named = .allocate(capacity: 1)
        named.initialize(to: [:])
        collections = .allocate(capacity: 1)
        collections.initialize(to: [:])
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        boxes.deinitialize(count: 1)
        boxes.deallocate()
        named.deinitialize(count: 1)
        named.deallocate()
        collections.deinitialize(count: 1)
        collections.deallocate()
    }

    func register<Service>(_ service: Service.Type, _ make: @escaping () -> Service) {
        pthread_mutex_lock(mutex)
        boxes.pointee[ObjectIdentifier(Service.self)] = FloorBox(make)
        pthread_mutex_unlock(mutex)
    }

    func resolve<Service>(_ service: Service.Type) -> Service {
        pthread_mutex_lock(mutex)
        let box = boxes.pointee[ObjectIdentifier(Service.self)].unsafelyUnwrapped
        pthread_mutex_unlock(mutex)
        return unsafeDowncast(box, to: FloorBox<Service>.self).make()
    }

    /// Removes the registration of `service`, as an install's rollback does.
    func unregister<Service>(_ service: Service.Type) {
        pthread_mutex_lock(mutex)
        let removed = boxes.pointee.removeValue(forKey: ObjectIdentifier(Service.self))
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(removed) {}
    }

    func register<Service>(_ service: Service.Type, name: String, _ make: @escaping () -> Service) {
        pthread_mutex_lock(mutex)
        named.pointee[NamedKey(service: ObjectIdentifier(Service.self), name: name)] = FloorBox(make)
        pthread_mutex_unlock(mutex)
    }

    func resolve<Service>(_ service: Service.Type, name: String) -> Service {
        pthread_mutex_lock(mutex)
        let box = named.pointee[NamedKey(service: ObjectIdentifier(Service.self), name: name)].unsafelyUnwrapped
        pthread_mutex_unlock(mutex)
        return unsafeDowncast(box, to: FloorBox<Service>.self).make()
    }

    func unregister<Service>(_ service: Service.Type, name: String) {
        pthread_mutex_lock(mutex)
        let removed = named.pointee.removeValue(forKey: NamedKey(service: ObjectIdentifier(Service.self), name: name))
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(removed) {}
    }
}

extension Floor {
    /// Keeps `elements` as the collection of `Service`.
    func register<Service>(collectionOf service: Service.Type, _ elements: [Service]) {
        pthread_mutex_lock(mutex)
        collections.pointee[ObjectIdentifier(Service.self)] = FloorCollection(elements)
        pthread_mutex_unlock(mutex)
    }

    /// The collection of `Service`: the array kept, returned.
    func resolveAll<Service>(_ service: Service.Type) -> [Service] {
        pthread_mutex_lock(mutex)
        let box = collections.pointee[ObjectIdentifier(Service.self)].unsafelyUnwrapped
        pthread_mutex_unlock(mutex)
        return unsafeDowncast(box, to: FloorCollection<Service>.self).elements
    }
}

final class FloorCollection<Service> {
    let elements: [Service]
    init(_ elements: [Service]) { self.elements = elements }
}

final class FloorBox<Service> {
    let make: () -> Service
    init(_ make: @escaping () -> Service) { self.make = make }
}
