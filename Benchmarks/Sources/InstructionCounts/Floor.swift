#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The least work a protocol-keyed locator can do: a pthread mutex around `[ObjectIdentifier: typed box]`, with
/// `unsafeDowncast` and no names, scopes, arguments, cycle detection or error checks.
///
/// A "singleton" here is a closure returning a captured instance; a "transient" one builds a new instance. The
/// dictionary sits behind a pointer rather than in a class's `var`, so that Swift's dynamic exclusivity checks,
/// which would cost more than the lookup itself, don't flatter ServiceHive by slowing the floor.
final class Floor: @unchecked Sendable {
    // Sendable: `boxes` is only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let boxes: UnsafeMutablePointer<[ObjectIdentifier: AnyObject]>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        boxes = .allocate(capacity: 1)
        boxes.initialize(to: [:])
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        boxes.deinitialize(count: 1)
        boxes.deallocate()
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
}

final class FloorBox<Service> {
    let make: () -> Service
    init(_ make: @escaping () -> Service) { self.make = make }
}
