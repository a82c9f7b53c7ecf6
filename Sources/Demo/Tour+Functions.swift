import ServiceHive
import ServiceHiveFunctions
import TradeModule

extension Tour {
    /// The tour's chapter on business components that update themselves: three screens show a cart badge, a stepper
    /// changes the cart through the cart service, and every badge follows; one screen refuses an update, one is
    /// released, and a theme restyles every title bar at once.
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
        func show(_ step: String) {
            center.deliverPending()
            say("\(step.padded(to: 10))\(screens.map(\.rendered).joined(separator: " | "))")
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
