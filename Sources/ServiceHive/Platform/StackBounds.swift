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
        guard let stack = lowestAddressAndSize(of: pthread_self()), stack.size > 0 else { return nil }
        return StackBounds(low: stack.low, high: stack.low + stack.size)
    }

    /// Where the stack of `thread` begins and how large it is: the one thing the operating systems say through APIs
    /// of their own, with nothing portable between them.
    private static func lowestAddressAndSize(of thread: pthread_t) -> (low: UInt, size: UInt)? {
        #if canImport(Darwin)
        let (high, size) = (UInt(bitPattern: pthread_get_stackaddr_np(thread)), UInt(pthread_get_stacksize_np(thread)))
        return high > size ? (high - size, size) : nil
        #else
        // `pthread_getattr_np` is a GNU extension that the C module does not import; it is in every libc that Swift runs
        // on outside Apple platforms, so it is looked up by name.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_getattr_np") else { return nil }
        var attributes = pthread_attr_t()
        guard unsafeBitCast(symbol, to: GetAttributes.self)(thread, &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return (UInt(bitPattern: address), UInt(size))
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
