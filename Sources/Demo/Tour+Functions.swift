import Observation
import ServiceHive
import ServiceHiveFunctions
import TradeModule

extension Tour {
    /// The tour's chapter on business components that update themselves: three screens show a cart badge, a stepper
    /// changes the cart through the cart service, and every badge follows; one screen refuses an update, one is
    /// released, and a theme restyles every title bar at once. Beside the controls, a summary observes the cart's
    /// count as a SwiftUI view would, and is drawn again only when the count changes.
    ///
    /// It runs in a hive of its own, with the modules of an app that shows a cart, and prints the same lines every
    /// run: values are applied with `deliverPending()` before each line that shows them.
    @MainActor
    func businessComponentsChapter(number: Int) async throws {
        let say = section(
            number, "Business components that update themselves",
            "Screens attach controls to typed keys; the module that owns the business keeps them current.")

        let hive = ServiceHive()
        let center = FunctionCenter(hive: hive)
        try hive.register(FunctionPoster.self, instance: center.poster)
        try await hive.install([TradeModule(), CartModule(), ThemeModule()])
        for registration in hive.registrations where registration.service.hasPrefix("BusinessFunction") {
            say("function  \(registration)")
        }

        say("Each screen shows its name, its cart badge, and its title bar's theme. A screen attaches its badge;")
        say("its title bar, a BusinessControl, joins the theme's function itself.")
        var screens = [
            try Screen("home", center: center), try Screen("product", center: center),
            try Screen("search", center: center),
        ]
        say("Beside them, a summary reads the count through an observed value, as a SwiftUI view would: it is drawn")
        say("again when Observation says the count changed, and not otherwise.")
        let summary = CartSummary(count: try center.observed(.cartBadge))
        func show(_ step: String) {
            center.deliverPending()
            let line = (screens.map(\.rendered) + [summary.rendered]).joined(separator: " | ")
            say("\(step.padded(to: 10))\(line)")
        }
        show("attached")

        let cart = try hive.resolve(CartService.self)
        let stepper = QuantityStepper()
        stepper.editQuantity(of: "hive-42", in: cart) { refusal in say("refused   \(refusal)") }
        stepper.tapPlus()
        stepper.tapPlus()
        show("+ +")

        screens[2].isTyping = true
        stepper.tapPlus()
        show("+")
        say("          search's delegate refused \(screens[2].refused.map(String.init).joined()): its user was typing")

        screens.removeLast()
        say("released  search: its badge drops out; \(center.controls(of: .cartBadge).count) badges are live")
        stepper.enter(5)
        show("typed 5")
        stepper.tapPlus()

        try hive.resolve(ThemeSettings.self).apply(.dark)
        show("dark")
        say("checkout  \(try cart.checkout().map(\.description).joined(separator: "; "))")
        show("emptied")

        do {
            try TitleBar().join(FunctionKey<TitleBar, Theme>("demo.holiday-theme"), in: center)
        } catch {
            say("\(error)")
        }
        await hive.shutdown()
    }
}

/// A summary of the cart, drawn the way SwiftUI draws a view: it reads the observed count while it draws, so
/// Observation tracks it, and it is drawn again only after Observation says that the count changed.
@MainActor
private final class CartSummary {
    let count: ObservedFunction<Int>
    /// Whether Observation said that the count changed since the last drawing: set by `onChange`, from any thread.
    private let changed = Locked(true)
    /// What the last drawing shows.
    private var drawn = ""
    /// How many times the summary was drawn.
    private var drawings = 0

    init(count: ObservedFunction<Int>) {
        self.count = count
    }

    /// `summary 3 items, drawn 2 times`: draws the summary first if the count changed.
    var rendered: String {
        if changed.withLock({ $0 }) { draw() }
        return "\(drawn), drawn \(drawings) \(drawings == 1 ? "time" : "times")"
    }

    private func draw() {
        changed.withLock { $0 = false }
        drawings += 1
        drawn = withObservationTracking {
            "summary \(count.value ?? 0) items"
        } onChange: { [changed] in
            changed.withLock { $0 = true }
        }
    }
}
