/// What a registration knew about whether its service is `Sendable`.
///
/// `Sendable` is a marker protocol: it leaves no trace at run time, so `any P & Sendable` and `any P` are one type to
/// the hive, and share one key. Only the compiler knows which one a call names, and it tells the hive by choosing
/// between two overloads: the one constrained to `Service: Sendable` passes `.declared`. A registration of an
/// existential made without that knowledge is unsure, and a resolve that returns the service typed as `Sendable`
/// refuses it with ``ServiceHiveError/notSendable(_:chain:)``, instead of handing out a non-`Sendable` instance as a
/// `Sendable` one. Concrete types are never unsure: whether they are `Sendable` does not depend on how they are named.
enum Sendability: Sendable {
    /// Registered through an overload constrained to `Service: Sendable`.
    case declared
    /// Registered through an unconstrained overload.
    case unknown

    /// Whether a registration of `service` with this knowledge is unsure.
    func isUnsure(for service: Any.Type) -> Bool {
        self == .unknown && isExistential(service)
    }
}

/// Whether `type` is an existential, such as `any P` or `any Collection<Int>`.
///
/// The standard library offers no check. Every type's metadata starts with its kind, except a class's on Apple
/// platforms, which starts with a pointer; the kinds of existentials are part of Swift's stable ABI. Read on
/// registration only, never while resolving.
func isExistential(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307  // MetadataKind.existential, MetadataKind.extendedExistential
}
