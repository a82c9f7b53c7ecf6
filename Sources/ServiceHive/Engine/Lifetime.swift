/// How the resolution path treats a scope. Each `ServiceHive.Scope` carries its own, so that nothing but the one switch
/// of a resolve's step (`HiveCore.step`) switches on it.
enum Lifetime: Sendable {
    case transient, graph
    /// `.singleton` and named scopes: one instance, cached.
    case shared
    /// The instance is a weak reference, to unwrap.
    case weak
    /// Forwarded to another registration of the same hive: converts the target's cached instance, or is built as a
    /// transient that resolves the target.
    case forward
}
