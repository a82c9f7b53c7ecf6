/// A control that joins the business function that updates it, as a JJComponentUpdateKit control does when its
/// function type is set.
///
/// Any class adopts it in one line, and has nothing to implement:
///
/// ```swift
/// final class CartBadge: UILabel, BusinessControl {}
///
/// let badge = CartBadge()
/// try badge.join(.cartBadge)  // shows the cart's count now, and after every change
/// badge.leave()               // stops; releasing the badge does too
/// ```
///
/// ``join(_:in:delegate:userInfo:)`` is ``FunctionCenter/attach(_:to:delegate:userInfo:)`` said from the control's
/// side, in ``FunctionCenter/shared`` unless you name a center, and it does what attaching does: the control gets the
/// key's current value at once; joining a second key, of any type, moves it there; the center holds it weakly.
///
/// The compiler checks the key against the control: a key's `Control` must be the control's own class. A subclass
/// joins a key of its superclass as that superclass, `(badge as BadgeLabel).join(.cartBadge)`, or is attached with
/// ``FunctionCenter/attach(_:to:delegate:userInfo:)``, which takes subclasses as they are.
public protocol BusinessControl: AnyObject {}

extension BusinessControl {
    /// Joins the business function of `key`: from now on, every value posted to the key updates this control.
    ///
    /// ```swift
    /// try badge.join(.cartBadge)
    /// try badge.join(.cartBadge, in: center, delegate: screen, userInfo: ["style": "compact"])
    /// ```
    ///
    /// The same as `center.attach(self, to: key, delegate: delegate, userInfo: userInfo)`: the control gets the key's
    /// current value at once, through the hooks; joining the same key again keeps its place and takes the new
    /// delegate and `userInfo`; joining another key moves it there. When the key's function can't be found, this
    /// throws and nothing changes.
    ///
    /// - Parameters:
    ///   - key: The key of the function that updates this control.
    ///   - center: The center to join in; ``FunctionCenter/shared``, the center of `ServiceHive.shared`, by default.
    ///   - delegate: An object whose hooks run around each update of this control, or `nil`. Held weakly.
    ///   - userInfo: Values the function's closures receive with this control.
    /// - Throws: A ``FunctionError`` when the key's function can't be found or built; see
    ///   ``FunctionCenter/attach(_:to:delegate:userInfo:)``.
    @MainActor
    public func join<Value>(
        _ key: FunctionKey<Self, Value>,
        in center: FunctionCenter = .shared,
        delegate: (any FunctionDelegate<Self, Value>)? = nil,
        userInfo: BusinessFunction<Self, Value>.UserInfo = [:]
    ) throws {
        try center.attach(self, to: key, delegate: delegate, userInfo: userInfo)
    }

    /// Leaves the key this control joined, in every center it is attached in: no value updates it after this.
    ///
    /// ```swift
    /// badge.leave()
    /// ```
    ///
    /// There is no need to leave before releasing a control: centers hold it weakly, and forget it.
    ///
    /// - Returns: Whether the control was attached in any center.
    @MainActor
    @discardableResult
    public func leave() -> Bool {
        FunctionCenter.detachEverywhere(self)
    }
}
