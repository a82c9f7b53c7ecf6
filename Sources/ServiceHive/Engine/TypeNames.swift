/// The name ServiceHive prints for a type: `TradeService` for `any TradeService`, `Int` for `Swift.Int`.
///
/// Kept per type once made: `String(describing:)` reflects on the type every time, which cost a traced resolve, whose
/// trace names the service it resolves, 7,200 of its 10,200 instructions (`Benchmarks/count-instructions 19c`).
func typeName(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = String(describing: type)
    typeNames.withLock { $0[key] = name }
    return name
}

/// Guards, and only guards, the names `typeName` has made, by type. A type's metadata lives as long as the process, so
/// its identifier is never reused, and the table grows only with the types a process resolves.
private let typeNames = Locked<[ObjectIdentifier: String]>([:])
