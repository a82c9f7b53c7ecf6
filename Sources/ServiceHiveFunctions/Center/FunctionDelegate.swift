/// An object that watches, and may refuse, the updates of one control: JJComponentUpdateKit's component delegate.
///
/// Pass it to ``FunctionCenter/attach(_:to:delegate:userInfo:)``. For each update of that control, the center calls,
/// in order: the function's `shouldUpdate`, then ``shouldUpdate(_:with:)``, ``willUpdate(_:with:)``, the update
/// itself, and ``didUpdate(_:with:)``. Either `shouldUpdate` returning `false` skips the rest for that control only.
/// The hooks run for the value a control gets when it is attached, too.
///
/// ```swift
/// final class CheckoutScreen: FunctionDelegate {
///     var isPaying = false
///
///     func shouldUpdate(_ badge: BadgeLabel, with count: Int) -> Bool {
///         !isPaying  // keep the badge still while the payment sheet is up
///     }
/// }
/// ```
///
/// Every hook has a default: `shouldUpdate` returns `true`, and `willUpdate` and `didUpdate` do nothing. The center
/// holds the delegate weakly: once it is released, its control is updated without hooks.
@MainActor
public protocol FunctionDelegate<Control, Value>: AnyObject {
    /// The type of the control whose updates this delegate watches.
    associatedtype Control: AnyObject
    /// The type of the values the control shows.
    associatedtype Value: Sendable

    /// Whether the control should take the value. Return `false` to leave it as it is.
    ///
    /// - Parameters:
    ///   - control: The control about to be updated.
    ///   - value: The value it would show.
    /// - Returns: `true` to go ahead with the update.
    func shouldUpdate(_ control: Control, with value: Value) -> Bool

    /// Called just before the control is updated.
    ///
    /// - Parameters:
    ///   - control: The control about to be updated.
    ///   - value: The value it is about to show.
    func willUpdate(_ control: Control, with value: Value)

    /// Called just after the control was updated.
    ///
    /// - Parameters:
    ///   - control: The control that was updated.
    ///   - value: The value it now shows.
    func didUpdate(_ control: Control, with value: Value)
}

extension FunctionDelegate {
    /// Returns `true`: the control takes every value.
    ///
    /// - Parameters:
    ///   - control: The control about to be updated.
    ///   - value: The value it would show.
    /// - Returns: `true`.
    public func shouldUpdate(_ control: Control, with value: Value) -> Bool { true }

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - control: The control about to be updated.
    ///   - value: The value it is about to show.
    public func willUpdate(_ control: Control, with value: Value) {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - control: The control that was updated.
    ///   - value: The value it now shows.
    public func didUpdate(_ control: Control, with value: Value) {}
}
