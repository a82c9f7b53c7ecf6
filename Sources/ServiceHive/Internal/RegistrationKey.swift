/// The key a registration is stored under: the service type, its name and its argument types.
struct RegistrationKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let name: String?
    let arguments: ArgumentSignature?
    /// Whether the resolve that looks this key up returns the service typed as `Sendable`, so that it must refuse a
    /// registration made without knowing that its instances are. Not part of the key's identity.
    var requiresSendable = false

    init(service: ObjectIdentifier, name: String?, arguments: ArgumentSignature?) {
        self.service = service
        self.name = name
        self.arguments = arguments
    }

    /// Inlined, with the one below, into every public resolve: called instead, it cost a call and a retain and release
    /// of the name on every resolve (benchmark `02 singleton resolve`, `Benchmarks/count-instructions 02`: 513 → 428
    /// instructions).
    @inline(__always)
    init<Service>(
        _: Service.Type, name: String?, arguments: ArgumentSignature? = nil, requiresSendable: Bool = false
    ) {
        self.init(service: ObjectIdentifier(Service.self), name: name, arguments: arguments)
        self.requiresSendable = requiresSendable
    }

    /// The key of a resolve that returns `Service` typed as `Sendable`.
    @inline(__always)
    init<Service: Sendable>(sendable _: Service.Type, name: String?, arguments: ArgumentSignature? = nil) {
        self.init(Service.self, name: name, arguments: arguments, requiresSendable: true)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.service == rhs.service && lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(name)
        hasher.combine(arguments)
    }

    /// Whether this is the unnamed registration without arguments, which most resolves ask for.
    var isPlain: Bool { name == nil && arguments == nil }
}
