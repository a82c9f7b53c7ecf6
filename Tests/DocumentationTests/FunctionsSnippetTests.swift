import ServiceHive
import ServiceHiveFunctions
import Testing

// An example of a business component that updates itself, registered in a hive as an app's module would: the badge
// shows the cart's count when attached, then every value posted.

/// A plain control, as a screen has it.
@MainActor
final class BadgeLabel {
    var text = ""
}

/// The business the badge shows.
protocol CartService: Sendable {
    var totalQuantity: Int { get }
}

struct Cart: CartService {
    var totalQuantity: Int { 2 }
}

// In the module that owns the cart: a typed key, and its function, registered in the hive.
extension FunctionKey where Control == BadgeLabel, Value == Int {
    static var cartBadge: Self { Self("shop.cart-badge") }
}

@Suite("Functions example", .timeLimit(.minutes(5)))
@MainActor
struct FunctionsSnippetTests {
    @Test("a badge shows the cart's count at once, then every posted value")
    func badge() throws {
        let hive = ServiceHive()
        try hive.register(CartService.self, instance: Cart())
        try hive.register(function: .cartBadge) { r in
            let cart = try r.resolve(CartService.self)
            return BusinessFunction(currentValue: { cart.totalQuantity }) { badge, count, _ in badge.text = "\(count)" }
        }

        // In any screen, on the main actor: one line, and no knowledge of carts.
        let center = FunctionCenter(hive: hive)
        let badge = BadgeLabel()
        try center.attach(badge, to: .cartBadge)  // shows "2" now

        // In business code, from any thread or task: every live cart badge follows, in the order posted.
        center.post(3, to: .cartBadge)
        #expect(badge.text == "2")
        center.deliverPending()
        #expect(badge.text == "3")
    }
}
