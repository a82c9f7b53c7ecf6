/// A value the app broadcasts to its installed modules with ``ServiceHive/broadcast(_:)``, as BeeHive's custom
/// events.
///
/// ```swift
/// struct UserDidSignIn: ServiceModuleEvent { let userID: String }
///
/// await hive.broadcast(UserDidSignIn(userID: "42"))
/// ```
public protocol ServiceModuleEvent: Sendable {}
