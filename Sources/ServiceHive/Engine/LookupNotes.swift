/// What a failed lookup saw near the missing key: the names registered for the same service, whether child hives
/// provide the service, and the installed modules that declare they need it.
struct LookupNotes: Sendable {
    var registeredNames: [String?] = []
    var providedByChildren = false
    var neededByModules: [String] = []
}
