/// A registration's factory, in the one form the resolution path calls.
final class Factory<Service>: Sendable {
    /// Builds an instance. The pointer holds the runtime arguments, laid out by `ArgumentPack.store` for exactly the
    /// entry's argument types, or is `nil` for a registration without arguments.
    let make: @Sendable (ServiceHive.Resolver, UnsafeRawPointer?) throws -> Service
    /// The factory of an async registration; `make` is then never called.
    let makeAsync: (@Sendable (ServiceHive.Resolver) async throws -> Service)?
    /// For a forwarded registration: converts the target's cached instance, a `Box` of the target type.
    let forward: (@Sendable (Instance) -> Service)?
    /// The post-construction hook, run once the instance is where it lives: in its graph, or visible to the thread
    /// that builds a shared one.
    let completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)?
    /// `Box<Service>`, looked up once: allocating through the metatype value skips the generic metadata lookup that
    /// the resolution path, generic and not specialized for `Service`, would otherwise make on every `.graph` build.
    private let boxType: Box<Service>.Type

    init(
        _ make: @escaping @Sendable (ServiceHive.Resolver, UnsafeRawPointer?) throws -> Service,
        forward: (@Sendable (Instance) -> Service)? = nil,
        completed: (@Sendable (ServiceHive.Resolver, Service) throws -> Void)? = nil
    ) {
        self.make = make
        makeAsync = nil
        self.forward = forward
        self.completed = completed
        boxType = Box<Service>.self
    }

    init(async makeAsync: @escaping @Sendable (ServiceHive.Resolver) async throws -> Service) {
        make = { _, _ in preconditionFailure("an async registration is built only by resolveAsync") }
        self.makeAsync = makeAsync
        forward = nil
        completed = nil
        boxType = Box<Service>.self
    }

    /// The instance a forwarded registration resolves to: `target`, converted.
    ///
    /// Unwrapped with `!`, not `unsafelyUnwrapped`: that generic getter returns the closure at the most general
    /// abstraction, which wraps it in a thunk whose context is allocated on every resolve (benchmark
    /// `15 forwarded singleton resolve`: one allocation per resolve through `unsafelyUnwrapped`, none through `!`).
    @inline(__always)
    func forwarded(_ target: Instance) -> Service {
        // An entry whose lifetime is `.forward` was made by `forward(_:name:to:named:file:line:as:)`, with a closure.
        forward!(target)
    }

    /// `value` in a box, as the hive caches it.
    @inline(__always)
    func box(_ value: Service, _ dependencies: Dependencies) -> Instance {
        boxType.init(value, dependencies: dependencies)
    }
}

/// A `Factory` whose service type is not known statically.
protocol ErasedFactory: AnyObject, Sendable {
    /// Resolves `key`, a key of this factory's service, from `resolver`, and discards the instance.
    func resolve(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) throws(ServiceHiveError)
    /// Resolves `key` as `resolveAsync` does, and discards the instance.
    func resolveAsync(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) async throws(ServiceHiveError)
}

extension Factory: ErasedFactory {
    func resolve(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) throws(ServiceHiveError) {
        let _: Service = try resolver.core.resolve(key)
    }

    func resolveAsync(_ key: RegistrationKey, with resolver: ServiceHive.Resolver) async throws(ServiceHiveError) {
        let _: Service = try await resolver.core.resolveAsync(key)
    }
}
