/// The typed name of a business function: which function, the type of control it updates, and the value it carries.
///
/// The module that owns the business declares the key, next to the function it registers for it:
///
/// ```swift
/// extension FunctionKey where Control == BadgeLabel, Value == Int {
///     /// The number of items in the cart, on every cart badge.
///     public static var cartBadge: Self { Self("trade.cart-badge") }
/// }
/// ```
///
/// A screen then attaches a control with one line, and knows nothing of the business behind it:
///
/// ```swift
/// try center.attach(badge, to: .cartBadge)
/// ```
///
/// The types make misuse a compile-time error: attaching a control that is not a `Control` (or a subclass of it), or
/// posting a value that is not a `Value`, does not compile. Unlike a string function type, a key can't be mistyped
/// at one call site and silently name another function.
///
/// Two keys are equal when their names are equal; keys of different `Control` or `Value` types never meet, because
/// they are different types. The key also records where it was declared, so that a missing function's error can say
/// which module should provide it.
public struct FunctionKey<Control: AnyObject, Value: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The function's name, such as `trade.cart-badge`. It is also the name the function is registered under in the
    /// hive.
    public let name: String

    /// The file that declared the key, as `#fileID` gives it: `TradeModule/CartFunctions.swift`.
    public let fileID: String

    /// The line in ``fileID`` that declared the key.
    public let line: UInt

    /// Creates a key.
    ///
    /// ```swift
    /// let theme = FunctionKey<TitleBar, Theme>("app.theme")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The function's name. Prefix it with the owning module's name to keep names unique, as in
    ///     `trade.cart-badge`.
    ///   - fileID: The file that declares the key; leave the default.
    ///   - line: The line that declares the key; leave the default.
    public init(_ name: String, fileID: String = #fileID, line: UInt = #line) {
        self.name = name
        self.fileID = fileID
        self.line = line
    }

    /// `trade.cart-badge (BadgeLabel, Int)`: the name, then the control and value types.
    public var description: String {
        "\(name) (\(String(describing: Control.self)), \(String(describing: Value.self)))"
    }

    /// Whether two keys have the same name. Where they were declared does not matter.
    ///
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key of the same types.
    /// - Returns: `true` when the names are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name
    }

    /// Hashes the name.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}
