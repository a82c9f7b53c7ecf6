/// A plain quantity stepper: a minus button, a number field and a plus button. It knows nothing of business.
///
/// Like the seed's `NumberEditView`, it reports what the user does through callbacks, and its owner decides what the
/// number becomes:
///
/// ```swift
/// let stepper = QuantityStepper()
/// stepper.onPlus = { stepper.value += 2 }  // the owner's rule
/// stepper.tapPlus()                        // value == 2
/// ```
///
/// Without a callback, a tap or an entered number changes ``value`` directly, within ``range``. With one, the
/// stepper leaves ``value`` to its owner. `TradeModule`'s ``editQuantity(of:in:onRefusal:)`` gives it cart powers that
/// way, as an extension.
@MainActor
public final class QuantityStepper {
    /// The numbers the field can show.
    public let range: ClosedRange<Int>

    /// The number in the field, always within ``range``.
    public var value: Int {
        didSet { value = min(max(value, range.lowerBound), range.upperBound) }
    }

    /// Called when the user taps plus, instead of adding one to ``value``.
    public var onPlus: (() -> Void)?

    /// Called when the user taps minus, instead of taking one from ``value``.
    public var onMinus: (() -> Void)?

    /// Called with the number the user typed into the field, instead of setting ``value`` to it.
    public var onNumberEntered: ((Int) -> Void)?

    /// Creates a stepper.
    ///
    /// - Parameters:
    ///   - value: The number in the field at first; clamped to `range`.
    ///   - range: The numbers the field can show; `0...99` by default.
    public init(value: Int = 0, range: ClosedRange<Int> = 0...99) {
        self.range = range
        self.value = min(max(value, range.lowerBound), range.upperBound)
    }

    /// What the user sees: `[-] 2 [+]`.
    public var rendered: String { "[-] \(value) [+]" }

    /// The user taps plus.
    public func tapPlus() {
        guard let onPlus else {
            value += 1
            return
        }
        onPlus()
    }

    /// The user taps minus.
    public func tapMinus() {
        guard let onMinus else {
            value -= 1
            return
        }
        onMinus()
    }

    /// The user types a number into the field.
    ///
    /// - Parameter number: The number typed.
    public func enter(_ number: Int) {
        guard let onNumberEntered else {
            value = number
            return
        }
        onNumberEntered(number)
    }
}
