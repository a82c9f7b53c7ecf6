extension ServiceHive {
    /// A property that is resolved when its owner is made.
    ///
    /// ```swift
    /// struct CheckoutView {
    ///     @ServiceHive.Injected var trade: any TradeService
    ///     @ServiceHive.Injected(name: "premium", hive: app) var premium: any TradeService
    /// }
    /// ```
    ///
    /// It resolves from ``ServiceHive/shared`` unless you pass a hive, once, when the property is initialized: so it
    /// sees the overrides of the task that makes its owner, at that moment. A failed resolve traps when the property
    /// is read, with the ``ServiceHiveError``'s full text, since a property has nowhere to throw; read
    /// `$property.instance` to get the error instead.
    ///
    /// Swift makes a property wrapper's storage a `var`, which a `Sendable` class may not have unless an actor
    /// isolates it. Use the wrapper in structs, actors and `@MainActor` classes; in a `Sendable` class, keep it as a
    /// constant and read its ``wrappedValue``:
    ///
    /// ```swift
    /// final class Checkout: Sendable {
    ///     let trade = ServiceHive.Injected<any TradeService>()
    ///     func order() throws { try trade.wrappedValue.placeOrder(itemId: "hive-42", quantity: 1) }
    /// }
    /// ```
    @propertyWrapper
    public struct Injected<Service> {
        private let resolved: Result<Service, any Error>

        /// Resolves the service now.
        ///
        /// - Parameters:
        ///   - name: The registration's name, or `nil`.
        ///   - hive: The hive to resolve from; ``ServiceHive/shared`` by default.
        public init(name: String? = nil, hive: ServiceHive = .shared) {
            resolved = Result { try hive.resolve(Service.self, name: name) }
        }

        /// The same, for a `Sendable` service: it resolves through the `Sendable` overload of `resolve`.
        @_documentation(visibility: internal)  // A twin of the documented initializer; see `Sendability`.
        public init(name: String? = nil, hive: ServiceHive = .shared) where Service: Sendable {
            resolved = Result { try hive.resolve(Service.self, name: name) }
        }

        /// The service.
        ///
        /// - Precondition: It resolved. A failed resolve traps here, with the error's text; ``instance`` throws it.
        public var wrappedValue: Service {
            switch resolved {
            case .success(let service): return service
            case .failure(let error): preconditionFailure("\(error)")
            }
        }

        /// The wrapper itself, as `$property`, for ``instance``.
        public var projectedValue: Self { self }

        /// The service, or the error its resolve threw: a ``ServiceHiveError``.
        public var instance: Service {
            get throws { try resolved.get() }
        }
    }

    /// A property that is resolved the first time it is read, then kept.
    ///
    /// ```swift
    /// actor Reporter {
    ///     @ServiceHive.LazyInjected var clock: any Clock
    /// }
    /// ```
    ///
    /// It resolves from ``ServiceHive/shared`` unless you pass a hive, on the first read: so it sees the overrides of
    /// the task that first reads it, at that moment, as ``ServiceHive/Lazy`` does. It is safe to read from any
    /// thread. A failed resolve traps with the ``ServiceHiveError``'s full text; read `$property.instance` to get the
    /// error instead. In a `Sendable` class, keep it as a constant and read its ``wrappedValue``, as with ``Injected``.
    @propertyWrapper
    public struct LazyInjected<Service> {
        private let lazy: Lazy<Service>

        /// Prepares to resolve the service on first read.
        ///
        /// - Parameters:
        ///   - name: The registration's name, or `nil`.
        ///   - hive: The hive to resolve from; ``ServiceHive/shared`` by default.
        public init(name: String? = nil, hive: ServiceHive = .shared) {
            lazy = Lazy(core: hive.core, key: RegistrationKey(Service.self, name: name))
        }

        /// The same, for a `Sendable` service: it resolves as the `Sendable` overload of `resolve` does.
        @_documentation(visibility: internal)  // A twin of the documented initializer; see `Sendability`.
        public init(name: String? = nil, hive: ServiceHive = .shared) where Service: Sendable {
            lazy = Lazy(core: hive.core, key: RegistrationKey(sendable: Service.self, name: name))
        }

        /// The service, resolved on the first read.
        ///
        /// - Precondition: It resolves. A failed resolve traps here, with the error's text; ``instance`` throws it.
        public var wrappedValue: Service {
            do {
                return try lazy.instance
            } catch {
                preconditionFailure("\(error)")
            }
        }

        /// The wrapper itself, as `$property`, for ``instance``.
        public var projectedValue: Self { self }

        /// The service, resolved on the first read, or the error its resolve threw: a ``ServiceHiveError``.
        public var instance: Service {
            get throws { try lazy.instance }
        }
    }
}

extension ServiceHive.Injected: Sendable where Service: Sendable {}

extension ServiceHive.LazyInjected: Sendable where Service: Sendable {}
