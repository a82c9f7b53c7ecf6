// snippet: functions-declare
import Observation
import ServiceHive
import ServiceHiveFunctions
import Support
import Testing

// The code of the article "Business Components That Update Themselves", compiled and run. `DocumentationSnippetTests`
// checks that the article's blocks and these regions stay the same, line for line.

/// The article's badge: a plain control.
@MainActor
final class BadgeLabel {
    var text = ""
    var isHidden = true
}

/// The article's cart service.
protocol CartService: Sendable {
    var totalQuantity: Int { get }
    func add(_ quantity: Int)
}

extension FunctionKey where Control == BadgeLabel, Value == Int {
    /// The number of items in the cart, on every cart badge.
    static var cartBadge: Self { Self("shop.cart-badge") }
}

struct CartModule: ServiceModule {
    func register(in hive: ServiceHive) throws {
        try hive.register(CartService.self, scope: .singleton) { r in LiveCartService(resolver: r) }
        try hive.register(function: .cartBadge) { r in
            let cart = try r.resolve(CartService.self)
            return BusinessFunction(currentValue: { cart.totalQuantity }) { badge, count, _ in
                badge.text = "\(count)"
                badge.isHidden = count == 0
            }
        }
    }
}
// end-snippet

// snippet: functions-post
final class LiveCartService: CartService {
    private let resolver: ServiceHive.Resolver
    private let count = Locked(0)

    init(resolver: ServiceHive.Resolver) { self.resolver = resolver }

    var totalQuantity: Int { count.withLock { $0 } }

    func add(_ quantity: Int) {
        let poster = try? resolver.resolve(FunctionPoster?.self)  // nil in an app that shows no badges
        count.withLock { count in
            count += quantity
            poster?.post(count, to: .cartBadge)
        }
    }
}
// end-snippet

/// The server the article's sync engine uploads the cart's count to: it keeps what it was sent.
actor CartServer {
    private(set) var uploads: [Int] = []

    func upload(cartCount: Int) {
        uploads.append(cartCount)
    }
}

// snippet: functions-join
extension BadgeLabel: BusinessControl {}  // one line, nothing to implement

@Suite("The article's snippets", .timeLimit(.minutes(5)))
@MainActor
struct ArticleSnippetTests {
    @Test("a BadgeLabel joins .cartBadge in FunctionCenter.shared, is updated by postImmediately at once, and leaves")
    func joinTheSharedCenter() throws {
        let badge = BadgeLabel()
        try ServiceHive.shared.withOverrides {
            $0.register(function: .cartBadge) { _ in
                BusinessFunction(currentValue: { 0 }) { badge, count, _ in badge.text = "\(count)" }
            }
        } operation: {
            try badge.join(.cartBadge)  // in FunctionCenter.shared: shows the cart's count at once
            #expect(badge.text == "0")
        }
        FunctionCenter.shared.postImmediately(5, to: .cartBadge)
        #expect(badge.text == "5")  // updated before postImmediately returned
        badge.leave()  // no update after this; releasing the badge does as much
        // end-snippet
        FunctionCenter.shared.postImmediately(6, to: .cartBadge)
        #expect(badge.text == "5")
    }

    @Test("a badge attached to the article's key shows the cart's count at once, and follows the cart")
    func attachAndDeliver() async throws {
        // snippet: functions-attach
        let hive = ServiceHive()
        let center = FunctionCenter(hive: hive)
        try hive.register(FunctionPoster.self, instance: center.poster)
        try await hive.install(CartModule())

        let badge = BadgeLabel()
        try center.attach(badge, to: .cartBadge)  // shows the cart's count at once
        // end-snippet
        #expect(badge.text == "0")
        #expect(badge.isHidden)
        #expect(hive.registrations.map(\.module) == [nil, "CartModule", "CartModule"])
        #expect(hive.validate().isValid)

        // snippet: functions-deliver
        try hive.resolve(CartService.self).add(2)
        center.deliverPending()
        #expect(badge.text == "2")
        // end-snippet
        #expect(!badge.isHidden)
    }

    @Test("the article's search screen keeps its badge still while its user types")
    func delegate() async throws {
        let hive = ServiceHive()
        let center = FunctionCenter(hive: hive)
        try hive.register(FunctionPoster.self, instance: center.poster)
        try await hive.install(CartModule())
        let badge = BadgeLabel()
        // snippet: functions-delegate
        final class SearchScreen: FunctionDelegate {
            var isTyping = false

            func shouldUpdate(_ badge: BadgeLabel, with count: Int) -> Bool {
                !isTyping  // keep the badge still while the user types
            }
        }

        let screen = SearchScreen()
        try center.attach(badge, to: .cartBadge, delegate: screen, userInfo: ["size": "small"])
        // end-snippet
        screen.isTyping = true
        try hive.resolve(CartService.self).add(1)
        center.deliverPending()
        #expect(badge.text == "0")
        screen.isTyping = false
        try hive.resolve(CartService.self).add(1)
        center.deliverPending()
        #expect(badge.text == "2")
    }

    @Test("the article's observed cart count starts with the cart's count, and Observation sees the post's change")
    func observe() async throws {
        let hive = ServiceHive()
        let center = FunctionCenter(hive: hive)
        try hive.register(FunctionPoster.self, instance: center.poster)
        try await hive.install(CartModule())
        let badge = BadgeLabel()
        try center.attach(badge, to: .cartBadge)
        // snippet: functions-observe
        let count = try center.observed(.cartBadge)  // one object for the key, for every reader
        #expect(count.value == 0)
        let changes = Locked(0)
        withObservationTracking {
            _ = count.value  // a SwiftUI body reads it, and so tracks it
        } onChange: {
            changes.withLock { $0 += 1 }  // SwiftUI redraws the view here, which reads it again
        }
        try hive.resolve(CartService.self).add(2)
        center.deliverPending()
        #expect(count.value == 2)
        #expect(changes.withLock { $0 } == 1)
        // end-snippet
        // The snippet's tracking ends at its first change, so it can't tell one change from two: tracked again after
        // each change, each post is one change.
        let everyChange = Locked(0)
        trackEveryChange(count, into: everyChange)
        for post in 1...3 {
            try hive.resolve(CartService.self).add(1)
            center.deliverPending()
            #expect(everyChange.current == post)
        }
        #expect(count.value == 5)
        #expect(badge.text == "5", "the same posts updated the control")
        #expect(try center.observed(.cartBadge) === count)
    }

    @Test("the article's sync engine uploads the cart's count, then each change, and ends with the last one")
    func syncEngine() async throws {
        for round in 0..<20 {
            let hive = ServiceHive()
            let center = FunctionCenter(hive: hive)
            try hive.register(FunctionPoster.self, instance: center.poster)
            try await hive.install(CartModule())
            let server = CartServer()
            let engine = Task.detached {
                // snippet: functions-values
                // In a sync engine's task, away from the main actor:
                let counts = try await center.values(.cartBadge)  // the count now, then each change
                for await count in counts {
                    await server.upload(cartCount: count)  // a slow upload skips to the latest count
                    if count == 3 { break }
                }
                // end-snippet
            }
            let cart = try hive.resolve(CartService.self)
            for _ in 0..<3 {
                cart.add(1)
                if round.isMultiple(of: 2) { center.deliverPending() } else { await Task.yield() }
            }
            try await within("round \(round): the sync engine to upload 3") { try await value(of: engine) }
            let uploads = await server.uploads
            #expect(uploads.last == 3, "round \(round)")
            #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0 < $1 }, "round \(round): \(uploads)")
        }
    }

    @Test("the article's override swaps the cart badge's function for a test")
    func override() async throws {
        let hive = ServiceHive()
        try await hive.install(CartModule())
        let badge = BadgeLabel()
        // snippet: functions-override
        try hive.withOverrides {
            $0.register(function: .cartBadge) { _ in
                BusinessFunction(currentValue: { 42 }) { badge, count, _ in badge.text = "\(count)" }
            }
        } operation: {
            let center = FunctionCenter(hive: hive)
            try center.attach(badge, to: .cartBadge)
            #expect(badge.text == "42")
        }
        // end-snippet
    }
}
