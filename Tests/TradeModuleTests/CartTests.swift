import ServiceHive
import ServiceHiveFunctions
import Support
import Testing

@testable import TradeModule

/// A hive with the trade and cart modules installed, a center, and the center's poster registered, as an app that
/// shows cart badges has them.
@MainActor
func cartApp(catalog: [CatalogItem] = CatalogItem.sample) async throws -> (ServiceHive, FunctionCenter) {
    let hive = ServiceHive()
    let center = FunctionCenter(hive: hive)
    try hive.register(FunctionPoster.self, instance: center.poster)
    try await hive.install([TradeModule(catalog: catalog), CartModule()])
    return (hive, center)
}

/// A hive with the trade and cart modules installed, and no function center.
func cartHive() async throws -> ServiceHive {
    let hive = ServiceHive()
    try await hive.install([TradeModule(), CartModule()])
    return hive
}

@Suite("The cart service: the layer under the screens", .timeLimit(.minutes(5)))
struct CartServiceTests {
    @Test("add, reduce and set change a line; the lines keep the order items were first added; 0 removes a line")
    func changes() async throws {
        let hive = try await cartHive()
        let cart = try hive.resolve(CartService.self)
        #expect(try cart.add(2, of: "hive-42") == 2)
        #expect(try cart.add(3, of: "honey-jar") == 3)
        #expect(try cart.add(1, of: "hive-42") == 3)
        #expect(try cart.reduce(1, of: "honey-jar") == 2)
        #expect(cart.lines == [CartLine(itemId: "hive-42", quantity: 3), CartLine(itemId: "honey-jar", quantity: 2)])
        #expect(cart.totalQuantity == 5)
        #expect(cart.total == Money(cents: 3 * 1_250 + 2 * 899))
        #expect(try cart.reduce(9, of: "hive-42") == 0)
        #expect(try cart.setQuantity(4, of: "honey-jar") == 4)
        #expect(cart.lines == [CartLine(itemId: "honey-jar", quantity: 4)])
        #expect(try cart.setQuantity(0, of: "honey-jar") == 0)
        #expect(cart.lines.isEmpty)
        #expect(cart.quantity(of: "honey-jar") == 0)
    }

    @Test("the cart refuses what the business rules refuse, and stays as it was")
    func refusals() async throws {
        let hive = try await cartHive()
        let cart = try hive.resolve(CartService.self)
        try cart.add(4, of: "hive-42")
        #expect(throws: TradeError.outOfStock(itemId: "hive-42", requested: 6, available: 5)) {
            try cart.add(2, of: "hive-42")
        }
        #expect(throws: TradeError.unknownItem("nectar")) { try cart.add(1, of: "nectar") }
        #expect(throws: TradeError.invalidQuantity(0)) { try cart.add(0, of: "hive-42") }
        #expect(throws: TradeError.invalidQuantity(-1)) { try cart.setQuantity(-1, of: "hive-42") }
        #expect(throws: TradeError.invalidQuantity(0)) { try cart.reduce(0, of: "hive-42") }
        #expect(cart.lines == [CartLine(itemId: "hive-42", quantity: 4)])
    }

    @Test("checkout orders every line through the trade service and empties the cart")
    func checkout() async throws {
        let hive = try await cartHive()
        let cart = try hive.resolve(CartService.self)
        try cart.add(2, of: "hive-42")
        try cart.add(1, of: "smoker")
        let orders = try cart.checkout()
        #expect(
            orders.map(\.description) == [
                "order #1: 2 × hive-42 at $12.50 (standard) = $25.00",
                "order #2: 1 × smoker at $45.00 (standard) = $45.00",
            ])
        #expect(cart.lines.isEmpty)
        #expect(try hive.resolve(InventoryService.self).stock(of: "hive-42") == 3)
    }

    @Test("the cart module's registrations are listed with their module, and validate")
    func registrations() async throws {
        let hive = try await cartHive()
        let cart = hive.registrations.filter { $0.module == "Cart" && !$0.isContribution }.map { "\($0.key)" }
        #expect(cart == ["CartService", "BusinessFunction<BadgeLabel, Int> (name: \"trade.cart-badge\")"])
        let checks = hive.registrations.filter { $0.module == "Cart" && $0.isContribution }
        #expect(checks.map(\.service) == ["HealthCheck"] && checks.map(\.name) == ["cart"])
        #expect(hive.validate().isValid)
    }
}

@Suite("The cart badge", .timeLimit(.minutes(5)))
@MainActor
struct CartBadgeTests {
    @Test("a badge shows the cart's count from the moment it is attached, and is hidden when the cart is empty")
    func initialCount() async throws {
        let (hive, center) = try await cartApp()
        let empty = BadgeLabel()
        try center.attach(empty, to: .cartBadge)
        #expect(empty.rendered == "hidden")
        try hive.resolve(CartService.self).add(2, of: "hive-42")
        let late = BadgeLabel()
        try center.attach(late, to: .cartBadge)
        #expect(late.rendered == "(2)")
    }

    @Test("every change of the cart updates every badge")
    func everyBadgeFollows() async throws {
        let (hive, center) = try await cartApp()
        let badges = [BadgeLabel(), BadgeLabel(), BadgeLabel()]
        for badge in badges { try center.attach(badge, to: .cartBadge) }
        let cart = try hive.resolve(CartService.self)
        try cart.add(3, of: "honey-jar")
        center.deliverPending()
        #expect(badges.map(\.rendered) == ["(3)", "(3)", "(3)"])
        _ = try cart.checkout()
        center.deliverPending()
        #expect(badges.map(\.rendered) == ["hidden", "hidden", "hidden"])
    }

    @Test("above 99 items a badge shows 99+")
    func manyItems() async throws {
        let catalog = [
            CatalogItem(id: "frame", price: Money(cents: 100), stock: 500),
            CatalogItem(id: "foundation", price: Money(cents: 100), stock: 500),
        ]
        let (hive, center) = try await cartApp(catalog: catalog)
        let badge = BadgeLabel()
        try center.attach(badge, to: .cartBadge)
        let cart = try hive.resolve(CartService.self)
        try cart.add(60, of: "frame")
        try cart.add(40, of: "foundation")
        center.deliverPending()
        #expect(badge.rendered == "(99+)")
    }

    @Test("changes from 4 threads at once reach the badges in the order the cart made them")
    func concurrentChanges() async throws {
        let catalog = (0..<4).map { CatalogItem(id: "item-\($0)", price: Money(cents: 100), stock: 1_000) }
        let (hive, center) = try await cartApp(catalog: catalog)
        let seen = Box<[String]>([])
        let badge = BadgeLabel()
        let watcher = Watcher(seen: seen)  // the center holds delegates weakly
        try center.attach(badge, to: .cartBadge, delegate: watcher)
        let cart = try hive.resolve(CartService.self)
        // An add that throws fails the test.
        try await onThreads(4, "the adds") { thread in
            for _ in 0..<25 { try cart.add(1, of: "item-\(thread)") }
        }
        center.deliverPending()
        #expect(seen.value == (0...100).map(String.init), "the initial 0, then each total once, in order")
        #expect(badge.rendered == "(99+)")
        withExtendedLifetime(watcher) {}
    }

    @Test("inside withOverrides, a center finds the overriding cart badge function")
    func overridden() async throws {
        let (hive, _) = try await cartApp()
        let badge = BadgeLabel()
        try hive.withOverrides {
            $0.register(function: .cartBadge) { _ in
                BusinessFunction(currentValue: { 7 }) { badge, count, _ in
                    badge.text = "mock \(count)"
                    badge.isHidden = false
                }
            }
        } operation: {
            try FunctionCenter(hive: hive).attach(badge, to: .cartBadge)
        }
        #expect(badge.rendered == "(mock 7)")
    }
}

/// A delegate that records every count its badge shows.
@MainActor
final class Watcher: FunctionDelegate {
    let seen: Box<[String]>
    init(seen: Box<[String]>) { self.seen = seen }
    func didUpdate(_ badge: BadgeLabel, with count: Int) { seen.value.append("\(count)") }
}

/// A value the main actor changes.
@MainActor
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("The quantity stepper", .timeLimit(.minutes(5)))
@MainActor
struct QuantityStepperTests {
    @Test("a plain stepper changes its own number within its range")
    func plain() {
        let stepper = QuantityStepper(value: 1, range: 0...3)
        stepper.tapMinus()
        stepper.tapMinus()
        #expect(stepper.value == 0)
        stepper.enter(7)
        #expect(stepper.value == 3)
        stepper.tapPlus()
        #expect(stepper.rendered == "[-] 3 [+]")
    }

    @Test("a plain stepper with callbacks leaves its number to its owner")
    func callbacks() {
        let stepper = QuantityStepper()
        var taps: [String] = []
        stepper.onPlus = { taps.append("plus") }
        stepper.onMinus = { taps.append("minus") }
        stepper.onNumberEntered = { taps.append("entered \($0)") }
        stepper.tapPlus()
        stepper.tapMinus()
        stepper.enter(5)
        #expect(taps == ["plus", "minus", "entered 5"])
        #expect(stepper.value == 0)
    }

    @Test("with cart powers, plus, minus and a typed number change the cart, and every badge follows")
    func cartPowers() async throws {
        let (hive, center) = try await cartApp()
        let cart = try hive.resolve(CartService.self)
        try cart.add(1, of: "hive-42")
        let badge = BadgeLabel()
        try center.attach(badge, to: .cartBadge)
        let stepper = QuantityStepper()
        var refusals: [String] = []
        stepper.editQuantity(of: "hive-42", in: cart) { refusals.append("\($0)") }
        #expect(stepper.value == 1)
        stepper.tapPlus()
        stepper.tapPlus()
        stepper.tapMinus()
        #expect(stepper.value == 2)
        #expect(cart.quantity(of: "hive-42") == 2)
        center.deliverPending()
        #expect(badge.rendered == "(2)")
        stepper.enter(9)
        #expect(refusals == ["only 5 of hive-42 in stock, 9 requested"])
        #expect(stepper.value == 2)
        stepper.enter(5)
        center.deliverPending()
        #expect(badge.rendered == "(5)")
        stepper.enter(0)
        center.deliverPending()
        #expect(badge.rendered == "hidden")
        #expect(cart.lines.isEmpty)
    }
}

@Suite("The cart module's needs", .timeLimit(.minutes(5)))
struct CartModuleNeedsTests {
    @Test("the cart installs after Trade, whose services it needs, in whatever order the two are given")
    func afterTrade() async throws {
        let hive = ServiceHive()
        try await hive.install([CartModule(), TradeModule()])
        #expect(hive.installedModules == ["Trade", "Cart"])
        #expect(try hive.resolve(CartService.self).add(1, of: "hive-42") == 1)
    }

    @Test("the cart without Trade fails before registering, naming the first service it needs and what is there")
    func withoutTrade() async throws {
        let hive = ServiceHive()
        let thrown = await #expect(throws: ServiceHiveError.self) { try await hive.install(CartModule()) }
        #expect(
            thrown?.description
                == "Module Cart needs PricingService, which no module of this install provides and the hive has not "
                + "registered. Cart provides CartService. Nothing was registered. To fix, install Cart with the "
                + "module that registers PricingService and lists it in its `provides`, or register PricingService "
                + "before installing: try hive.register(PricingService.self) { … }")
        #expect(hive.registrations.isEmpty)
    }
}
