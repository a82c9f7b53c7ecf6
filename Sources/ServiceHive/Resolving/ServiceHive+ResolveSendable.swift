// The overloads the compiler picks when `Service` is known to be `Sendable`. Each does what its documented twin does,
// and refuses a registration that was not sure its instances are `Sendable`, with `ServiceHiveError.notSendable`; see
// `Sendability`. They are hidden from the documentation, where they would only repeat their twins.

extension ServiceHive.Resolving {
    /// Resolves a `Sendable` service registered without arguments.
    @_documentation(visibility: internal)
    @inlinable
    public func resolve<Service: Sendable>(_ service: Service.Type = Service.self, name: String? = nil) throws
        -> Service
    {
        try resolver.resolve(Service.self, name: name, requiresSendable: true)
    }

    /// Resolves a `Sendable` service whose factory may be `async`, awaiting it.
    @_documentation(visibility: internal)
    @inlinable
    nonisolated(nonsending) public func resolveAsync<Service: Sendable>(
        _ service: Service.Type = Service.self,
        name: String? = nil
    ) async throws -> Service {
        try await resolver.resolveAsync(Service.self, name: name, requiresSendable: true)
    }

    /// Resolves a `Sendable` service registered with runtime arguments.
    @_documentation(visibility: internal)
    @inlinable
    public func resolve<Service: Sendable, First, each Rest>(
        _ service: Service.Type = Service.self, name: String? = nil, arguments first: First, _ rest: repeat each Rest
    ) throws -> Service {
        try resolver.resolve(Service.self, name: name, requiresSendable: true, first, repeat each rest)
    }
}
