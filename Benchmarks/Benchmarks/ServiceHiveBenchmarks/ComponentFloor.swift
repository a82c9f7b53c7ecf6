#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The least work a call by name can do: a pthread mutex around `[component: [command: handler]]`, and the handler.
/// Like `Floor`, it keeps the dictionary behind a pointer, so that no exclusivity check slows it.
final class ComponentFloor: @unchecked Sendable {
    typealias Arguments = [String: any Sendable]
    typealias Handler = (Arguments) throws -> Arguments

    // Sendable: `handlers` is only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let handlers: UnsafeMutablePointer<[String: [String: Handler]]>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        handlers = .allocate(capacity: 1)
        handlers.initialize(to: [:])
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        handlers.deinitialize(count: 1)
        handlers.deallocate()
    }

    func register(_ component: String, _ command: String, _ handler: @escaping Handler) {
        pthread_mutex_lock(mutex)
        handlers.pointee[component, default: [:]][command] = handler
        pthread_mutex_unlock(mutex)
    }

    func call(_ component: String, _ command: String, arguments: Arguments) throws -> Arguments {
        pthread_mutex_lock(mutex)
        let handler = handlers.pointee[component]?[command]
        pthread_mutex_unlock(mutex)
        return try handler.unsafelyUnwrapped(arguments)
    }
}
