/// A small label that shows a number over an icon, such as the count on a cart button. It knows nothing of
/// business: whoever owns it sets its text.
///
/// ```swift
/// let badge = BadgeLabel()
/// try center.attach(badge, to: .cartBadge)  // the cart keeps it current from now on
/// ```
///
/// It stands in for a `UILabel`: the tour and the tests run on Linux, where there is no UIKit.
@MainActor
public final class BadgeLabel {
    /// The text the badge shows; empty when it shows nothing.
    public var text = ""

    /// Whether the badge is hidden.
    public var isHidden = true

    /// Creates an empty, hidden badge.
    public init() {}

    /// What a screen would draw: `(3)`, or `hidden`.
    public var rendered: String { isHidden ? "hidden" : "(\(text))" }
}
