extension ServiceHive {
    /// What a factory receives to resolve its own dependencies.
    ///
    /// ```swift
    /// try hive.register(Cart.self) { r in LiveCart(trade: try r.resolve()) }
    /// ```
    ///
    /// A resolver resolves from the hive the factory runs for. Resolves made through it during the factory join the
    /// resolve that called the factory: they share its chain, so cycles are reported instead of overflowing the
    /// stack, and its `.graph` instances.
    ///
    /// A resolver may be kept and used after the factory returns, to resolve a dependency lazily; that is one way to
    /// break a cycle between two services. It does not keep its hive alive, so an instance that keeps its resolver
    /// forms no retain cycle with the hive that caches it. Resolving through a resolver whose hive has been released
    /// throws ``ServiceHiveError/hiveReleased(_:)``.
    public struct Resolver: Resolving {
        /// The hive this resolver resolves from. The one stored property: with a second, building a transient retains
        /// and releases its resolver (`Benchmarks/count-instructions 01`: 867 with two, 808 with one).
        let core: HiveCore

        init(core: HiveCore) {
            self.core = core
        }

        /// This resolver itself.
        public var resolver: Resolver { self }

        /// The entry point of the inlinable resolve methods of ``Resolving``.
        @usableFromInline
        func resolve<Service>(_: Service.Type, name: String?, requiresSendable: Bool) throws -> Service {
            try core.resolve(RegistrationKey(Service.self, name: name, requiresSendable: requiresSendable))
        }

        /// The entry point of the inlinable async resolve methods of ``Resolving``.
        @usableFromInline
        nonisolated(nonsending) func resolveAsync<Service>(
            _: Service.Type,
            name: String?,
            requiresSendable: Bool
        ) async throws -> Service {
            try await core.resolveAsync(RegistrationKey(Service.self, name: name, requiresSendable: requiresSendable))
        }

        /// Lays the arguments out in the caller, for both overloads of `resolve(_:name:arguments:_:)`.
        @inlinable
        func resolve<Service, First, each Rest>(
            _: Service.Type,
            name: String?,
            requiresSendable: Bool,
            _ first: First,
            _ rest: repeat each Rest
        ) throws -> Service {
            // Safe: a list with a first element always has a signature.
            let signature = ArgumentPack.signature(First.self, repeat (each Rest).self).unsafelyUnwrapped
            let layout = ArgumentPack.layout(First.self, repeat (each Rest).self)
            return try ArgumentPack.withBuffer(byteCount: layout.byteCount, alignment: layout.alignment) { values in
                ArgumentPack.store(first, repeat each rest, in: values)
                defer { ArgumentPack.destroy(First.self, repeat (each Rest).self, in: values) }
                return try resolve(
                    Service.self,
                    name: name,
                    signature: signature,
                    requiresSendable: requiresSendable,
                    values: UnsafeRawPointer(values),
                    types: { ArgumentPack.types(First.self, repeat (each Rest).self) },
                    matches: { ArgumentPack.matches($0, First.self, repeat (each Rest).self) }
                )
            }
        }

        /// The entry point of the `@inlinable` argument resolves, which lay the arguments out in the caller.
        @usableFromInline
        func resolve<Service>(
            _: Service.Type,
            name: String?,
            signature: ArgumentSignature,
            requiresSendable: Bool,
            values: UnsafeRawPointer,
            types: () -> [Any.Type],
            matches: ([Any.Type]) -> Bool
        ) throws -> Service {
            try core.resolve(
                RegistrationKey(Service.self, name: name, arguments: signature, requiresSendable: requiresSendable),
                arguments: values,
                argumentTypes: types, argumentsMatch: matches)
        }
    }
}
