/// What a business function does for its controls: how to update one, whether to skip one, and what the current value
/// is.
///
/// The module that owns the business writes the function once and registers it in the hive under its
/// ``FunctionKey``, with ``ServiceHive/ServiceHive/register(function:file:line:factory:)``. Every control attached to
/// the key is then updated by it, on the main actor:
///
/// ```swift
/// try hive.register(function: .cartBadge) { r in
///     let cart = try r.resolve(CartService.self)
///     return BusinessFunction(currentValue: { cart.totalQuantity }) { badge, count, _ in
///         badge.text = count == 0 ? "" : "\(count)"
///     }
/// }
/// ```
///
/// The closures receive the control already typed as `Control`: no cast, so no wrong type at run time. Their third
/// argument is the `userInfo` the control was attached with, for functions that show the same value differently in
/// different places.
///
/// The hive keeps the function, and a ``FunctionCenter`` keeps its hive, so a function must not hold a center
/// strongly: one that posts captures the center's ``FunctionPoster`` instead, which keeps nothing alive.
///
/// It is JJComponentUpdateKit's function object, as three closures: `update` is `updateComponent:withObject:`,
/// `shouldUpdate` is `shouldUpdateComponent:withObject:`, and ``FunctionCenter/post(_:to:)`` is
/// `updateAllComponentWithObject:`.
public struct BusinessFunction<Control: AnyObject, Value: Sendable>: Sendable {
    /// The dictionary a control is attached with, passed to the function's closures.
    public typealias UserInfo = [String: any Sendable]

    /// Reads the business's current value, for a control that has just been attached.
    let currentValue: (@MainActor () -> Value?)?

    /// Decides whether one control takes a value; `nil` when every control does.
    let shouldUpdate: (@MainActor (Control, Value, UserInfo) -> Bool)?

    /// Shows a value in one control.
    let update: @MainActor (Control, Value, UserInfo) -> Void

    /// Creates a function from the closures that update one control.
    ///
    /// ```swift
    /// BusinessFunction<TitleBar, Theme> { bar, theme, _ in
    ///     bar.style = theme.titleStyle
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - currentValue: Reads the current value of the business, such as the number of items in the cart, or gives
    ///     `nil` when there is none. A control that is attached gets it at once. Without it, a control that is
    ///     attached gets the last value posted to the key, if any.
    ///   - shouldUpdate: Whether a control takes a value; return `false` to leave that control as it is. It runs
    ///     before the delegate's ``FunctionDelegate/shouldUpdate(_:with:)``.
    ///   - update: Shows a value in a control.
    public init(
        currentValue: (@MainActor () -> Value?)? = nil,
        shouldUpdate: (@MainActor (Control, Value, UserInfo) -> Bool)? = nil,
        update: @escaping @MainActor (Control, Value, UserInfo) -> Void
    ) {
        self.currentValue = currentValue
        self.shouldUpdate = shouldUpdate
        self.update = update
    }
}
