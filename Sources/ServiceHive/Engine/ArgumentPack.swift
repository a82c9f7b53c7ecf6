/// The identity of a runtime argument list: a fingerprint of its types, in order, and how many there are.
///
/// The fingerprint folds each type's `ObjectIdentifier`, so no tuple metadata has to be built on a resolve. Two
/// different lists could in principle share a fingerprint; that is why every entry also keeps its exact argument
/// types, and `ArgumentPack.matches` checks them before any argument is read.
@usableFromInline
struct ArgumentSignature: Hashable, Sendable {
    @usableFromInline let fingerprint: UInt64
    @usableFromInline let count: Int

    @inlinable
    init(fingerprint: UInt64, count: Int) {
        self.fingerprint = fingerprint
        self.count = count
    }
}

/// Runtime arguments, passed across the type-erased factory boundary in a stack buffer instead of a generic
/// tuple: each value at its natural alignment, one after another.
///
/// Its functions are `@inlinable`, and so are the public entry points that take parameter packs: specialized in
/// the caller, a pack costs nothing, while unspecialized pack code instantiates tuple and metatype metadata at run
/// time, about 300 ns for two arguments.
@usableFromInline
enum ArgumentPack {
    /// The signature of an argument list, or `nil` when it is empty.
    @inlinable
    static func signature<each Argument>(_ types: repeat (each Argument).Type) -> ArgumentSignature? {
        var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
        var count = 0
        repeat fold(each types, into: &fingerprint, counting: &count)
        guard count > 0 else { return nil }
        return ArgumentSignature(fingerprint: fingerprint, count: count)
    }

    @inlinable
    static func fold<T>(_: T.Type, into fingerprint: inout UInt64, counting count: inout Int) {
        let identifier = UInt64(UInt(bitPattern: ObjectIdentifier(T.self)))
        fingerprint = (fingerprint ^ identifier) &* 0x0000_0100_0000_01B3
        fingerprint ^= fingerprint >> 29
        count += 1
    }

    /// The argument types, in order.
    @inlinable
    static func types<each Argument>(_ types: repeat (each Argument).Type) -> [Any.Type] {
        var list: [Any.Type] = []
        repeat list.append(each types)
        return list
    }

    /// Whether `stored`, an entry's argument types, are exactly these types, in order.
    @inlinable
    static func matches<each Argument>(_ stored: [Any.Type], _ types: repeat (each Argument).Type) -> Bool {
        var index = 0
        var equal = true
        repeat check(each types, against: stored, at: &index, equal: &equal)
        return equal && index == stored.count
    }

    @inlinable
    static func check<T>(_: T.Type, against stored: [Any.Type], at index: inout Int, equal: inout Bool) {
        equal = equal && index < stored.count && ObjectIdentifier(stored[index]) == ObjectIdentifier(T.self)
        index += 1
    }

    /// The size and alignment of the buffer that holds values of these types.
    @inlinable
    static func layout<each Argument>(_ types: repeat (each Argument).Type) -> (byteCount: Int, alignment: Int) {
        var offset = 0
        var alignment = 1
        repeat place(each types, at: &offset, alignment: &alignment)
        return (max(offset, 1), alignment)
    }

    @inlinable
    static func place<T>(_: T.Type, at offset: inout Int, alignment: inout Int) {
        offset = align(offset, MemoryLayout<T>.alignment) + MemoryLayout<T>.size
        alignment = max(alignment, MemoryLayout<T>.alignment)
    }

    /// Copies `values` into `buffer`, laid out as `layout` says. The caller calls `destroy` afterwards.
    @inlinable
    static func store<each Argument>(_ values: repeat each Argument, in buffer: UnsafeMutableRawPointer) {
        var offset = 0
        repeat store(each values, in: buffer, at: &offset)
    }

    @inlinable
    static func store<T>(_ value: T, in buffer: UnsafeMutableRawPointer, at offset: inout Int) {
        offset = align(offset, MemoryLayout<T>.alignment)
        (buffer + offset).initializeMemory(as: T.self, to: value)
        offset += MemoryLayout<T>.size
    }

    /// Destroys the values `store` copied into `buffer`.
    @inlinable
    static func destroy<each Argument>(_ types: repeat (each Argument).Type, in buffer: UnsafeMutableRawPointer) {
        var offset = 0
        repeat destroy(each types, in: buffer, at: &offset)
    }

    @inlinable
    static func destroy<T>(_: T.Type, in buffer: UnsafeMutableRawPointer, at offset: inout Int) {
        offset = align(offset, MemoryLayout<T>.alignment)
        (buffer + offset).assumingMemoryBound(to: T.self).deinitialize(count: 1)
        offset += MemoryLayout<T>.size
    }

    /// Reads the next value of type `T` from a buffer laid out by `store`, advancing `offset`.
    @inlinable
    static func load<T>(_: T.Type, from buffer: UnsafeRawPointer, at offset: inout Int) -> T {
        offset = align(offset, MemoryLayout<T>.alignment)
        let value = buffer.load(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return value
    }

    /// Runs `body` with a buffer for arguments: on the stack when they fit in 64 bytes at 8-byte alignment, which
    /// is nearly always, else on the heap. (`withUnsafeTemporaryAllocation` heap-allocates whenever the size is
    /// not a compile-time constant.)
    @inlinable
    static func withBuffer<Result>(
        byteCount: Int,
        alignment: Int,
        _ body: (UnsafeMutableRawPointer) throws -> Result
    ) rethrows -> Result {
        guard byteCount <= MemoryLayout<InlineStorage>.size, alignment <= MemoryLayout<InlineStorage>.alignment else {
            let heap = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
            defer { heap.deallocate() }
            return try body(heap)
        }
        var storage = InlineStorage()
        return try withUnsafeMutableBytes(of: &storage) { bytes in
            try body(bytes.baseAddress.unsafelyUnwrapped)
        }
    }

    /// 64 bytes of stack, 8-byte aligned.
    @usableFromInline
    struct InlineStorage {
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        @inlinable init() { words = (0, 0, 0, 0, 0, 0, 0, 0) }
    }

    @inlinable
    static func align(_ offset: Int, _ alignment: Int) -> Int {
        (offset + alignment - 1) & ~(alignment - 1)
    }
}

/// A factory that takes runtime arguments, made ready to store: the argument list's signature and types, and a
/// factory that reads the arguments from an `ArgumentPack` buffer. Built `@inlinable`, so that the pack code is
/// specialized in the caller.
@usableFromInline
struct ArgumentFactory<Service>: Sendable {
    @usableFromInline let signature: ArgumentSignature?
    @usableFromInline let types: [Any.Type]
    @usableFromInline let make: @Sendable (ServiceHive.Resolver, UnsafeRawPointer?) throws -> Service

    @inlinable
    init<First, each Rest>(
        _ factory: @escaping @Sendable (ServiceHive.Resolver, First, repeat each Rest) throws -> Service
    ) {
        signature = ArgumentPack.signature(First.self, repeat (each Rest).self)
        types = ArgumentPack.types(First.self, repeat (each Rest).self)
        make = { resolver, arguments in
            // Safe: the resolution path checked that the arguments have exactly these types and laid them out with
            // `ArgumentPack.store`; an entry with an argument signature is only found with arguments.
            let buffer = arguments.unsafelyUnwrapped
            var offset = 0
            let first = ArgumentPack.load(First.self, from: buffer, at: &offset)
            return try factory(resolver, first, repeat ArgumentPack.load((each Rest).self, from: buffer, at: &offset))
        }
    }
}
