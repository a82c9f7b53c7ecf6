import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ServiceHive {
    /// One call to a command, as the command's handler receives it: the arguments, a resolver for services, and the
    /// caller's callback.
    ///
    /// ```swift
    /// component.command("quote") { call in
    ///     let item: String = try call.argument("item")
    ///     let quantity = try call.argument("quantity", as: Int.self)
    ///     let trade = try call.resolver.resolve(TradeService.self)
    ///     return ["total": try trade.quote(itemId: item, quantity: quantity).total.cents]
    /// }
    /// ```
    ///
    /// Read arguments with ``argument(_:as:)``: a missing argument, or one that does not convert to the type asked
    /// for, throws an error that names the component, the command and the argument. Values from a URL arrive as
    /// text, and convert without loss: `"2"` reads as `2`, `"true"` as `true`.
    public struct ComponentCall: Sendable {
        /// The name of the component called.
        public let component: String
        /// The name of the command called.
        public let command: String
        /// The arguments, by name, exactly as the caller passed them. From a URL, every value is a `String`.
        public let arguments: [String: any Sendable]
        /// Resolves services from the hive that was called, with the overrides of the calling task.
        public let resolver: Resolver
        /// The URL the call came from, or `nil` for a call from code.
        public let url: URL?
        /// The caller's callback, if it passed one.
        let replyHandler: (@Sendable (ComponentReply) -> Void)?

        init(
            component: String,
            command: String,
            arguments: [String: any Sendable],
            resolver: Resolver,
            url: URL?,
            callback: (@Sendable (ComponentReply) -> Void)?
        ) {
            self.component = component
            self.command = command
            self.arguments = arguments
            self.resolver = resolver
            self.url = url
            replyHandler = callback
        }

        /// Reads the argument named `name` as a `Value`: exactly, or converted without loss.
        ///
        /// ```swift
        /// let item: String = try call.argument("item")
        /// let quantity = try call.argument("quantity", as: Int.self)    // "2" from a URL reads as 2
        /// let note = try call.argument("note", as: String?.self)        // nil when not passed
        /// let limit = try call.argument("limit", as: Int?.self) ?? 20   // 20 when not passed; "ten" throws
        /// ```
        ///
        /// Text converts to a type that converts from text exactly (`LosslessStringConvertible`), and a number to
        /// another numeric type when the value is the same: `"2"` and `2.0` read as the `Int` 2, but `"two"` and
        /// `2.5` do not.
        ///
        /// An `Optional` type reads an argument that is not passed, or is passed as `nil`, as `nil`. An argument that
        /// is passed and does not convert throws, for an `Optional` type as for the type it wraps: a wrong value is
        /// never taken for a missing one.
        ///
        /// - Parameters:
        ///   - name: The argument's name.
        ///   - type: The type to read it as; inferred from the context when left out.
        /// - Returns: The argument.
        /// - Throws: ``ComponentError/missingArgument(component:command:argument:passed:)`` when the call does not
        ///   pass it and `Value` is not optional, listing what it does pass;
        ///   ``ComponentError/argumentTypeMismatch(component:command:argument:expected:found:)`` when it does not
        ///   convert, optional or not. A command that lets either propagate fails with that error, unwrapped.
        @inlinable
        public func argument<Value>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
            try read(name, in: arguments, as: Value.self)
        }

        /// Reads every argument at once, as a `Decodable` type whose properties are the arguments' names.
        ///
        /// ```swift
        /// struct QuoteRequest: Codable { var item: String; var quantity: Int }
        /// let request = try call.decode(QuoteRequest.self)
        /// ```
        ///
        /// - Parameter type: The type to decode.
        /// - Returns: The decoded value.
        /// - Throws: The errors of ``argument(_:as:)``, naming the argument's path for a nested one, such as
        ///   `address.city`; ``ComponentError/conversionFailed(component:command:type:underlying:)`` when the
        ///   type's own decoding code throws.
        public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
            try decodeAll(Value.self)
        }

        /// Sends `reply` to the caller's callback, now: a command may call back any number of times, for progress or
        /// for intermediate results. Does nothing when the caller passed no callback.
        ///
        /// ```swift
        /// component.command("track") { call in
        ///     call.callback(["progress": 50])
        ///     return ["status": "delivered"]
        /// }
        /// ```
        ///
        /// The caller's callback runs inside this method, on the thread and in the task that call it, and this
        /// returns when the callback does. The hive neither queues, reorders nor drops what is sent, and does not hop
        /// to the caller's actor. So what a command sends before it returns reaches the caller before its call
        /// returns, in order. What it sends after it returns, from a task it started or a handler it kept, reaches
        /// the caller on that task or thread, after the caller has the reply. A caller that updates the UI from its
        /// callback hops to the main actor there.
        ///
        /// - Parameter reply: What to send.
        public func callback(_ reply: ComponentReply) {
            replyHandler?(reply.stamped(component, command))
        }
    }
}

extension ServiceHive.ComponentCall: NamedValues {
    @usableFromInline
    var namedValues: [String: any Sendable] { arguments }

    /// Where the arguments belong, for errors.
    @usableFromInline
    var origin: ValueOrigin {
        ValueOrigin(component: component, command: command, role: .arguments)
    }
}
