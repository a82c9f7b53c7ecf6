#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// The address range of the current thread's stack, or `nil` where the platform does not say.
///
/// ServiceHive keeps ``reserve`` bytes of it free: a nested resolve that would go below that fails with
/// ``ServiceHiveError/stackExhausted(_:chain:)`` instead of crashing the process.
struct StackBounds {
    /// The lowest address of the stack, which grows down towards it.
    let low: UInt
    /// The highest address of the stack.
    let high: UInt

    /// How much stack a nested resolve must leave free: room for one more level of factories in a debug build
    /// under a sanitizer, and for throwing the error.
    static let reserve: UInt = 128 * 1024

    /// The current thread's stack.
    static func current() -> StackBounds? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return size > 0 && high > size ? StackBounds(low: high - size, high: high) : nil
        #else
        // `pthread_getattr_np` is a GNU extension that the C module does not import; it is in every libc that
        // Swift runs on outside Apple platforms, so look it up by name.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "pthread_getattr_np") else {
            return nil
        }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > 0 else { return nil }
        let low = UInt(bitPattern: address)
        return StackBounds(low: low, high: low + UInt(size))
        #endif
    }

    /// The stack a level of nested resolves is assumed to take when it can't be measured: more than a debug build
    /// under AddressSanitizer takes.
    static let estimatedBytesPerLevel: UInt = 16 * 1024

    /// Whether the stack below the caller's frame is down to the reserve, `depth` factories deep.
    ///
    /// The caller's position is the address of a local. Under AddressSanitizer that local may live on a separate,
    /// "fake" stack, outside these bounds; then the position is estimated from the depth instead.
    func isLow(depth: Int) -> Bool {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if address > low && address < high { return address - low < Self.reserve }
        return UInt(depth) &* Self.estimatedBytesPerLevel &+ Self.reserve >= high &- low
    }
}
