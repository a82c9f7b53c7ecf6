import ServiceHive
import ServiceHiveFunctions
import Support
import TradeModule

// The Demo app's screens for the tour's chapter on business components: each shows a cart badge from TradeModule
// and a title bar that follows the app's theme, a second business function, owned by the Demo's Theme module.

/// A look for the app's title bars.
struct Theme: Sendable, Hashable, CustomStringConvertible {
    let name: String

    static let light = Theme(name: "light")
    static let dark = Theme(name: "dark")

    var description: String { name }
}

/// A screen's title bar: a control that knows nothing of themes, and joins the theme's function itself.
@MainActor
final class TitleBar: BusinessControl {
    var style = "plain"
}

extension FunctionKey where Control == TitleBar, Value == Theme {
    /// The app's theme, on every title bar.
    static var theme: Self { Self("demo.theme") }
}

/// The app's current theme.
protocol ThemeSettings: Sendable {
    var current: Theme { get }
    /// Switches the theme; every title bar follows.
    func apply(_ theme: Theme)
}

/// Registers the theme settings and the theme's function, as the seed's skinning example has one.
struct ThemeModule: ServiceModule {
    var name: String { "Theme" }

    func register(in hive: ServiceHive) throws {
        try hive.register(ThemeSettings.self, scope: .singleton) { r in LiveThemeSettings(resolver: r) }
        try hive.register(function: .theme) { r in
            let settings = try r.resolve(ThemeSettings.self)
            return BusinessFunction(currentValue: { settings.current }) { bar, theme, _ in bar.style = theme.name }
        }
    }

    private final class LiveThemeSettings: ThemeSettings {
        private let resolver: ServiceHive.Resolver
        private let theme = Locked(Theme.light)

        init(resolver: ServiceHive.Resolver) { self.resolver = resolver }

        var current: Theme { theme.current }

        func apply(_ theme: Theme) {
            let poster = try? resolver.resolve(FunctionPoster?.self)
            self.theme.withLock { current in  // posted under the lock, so title bars see themes in the order applied
                current = theme
                poster?.post(theme, to: .theme)
            }
        }
    }
}

/// A screen of the Demo app: a title bar and a cart badge. While the user types in it, it refuses badge updates.
@MainActor
final class Screen: FunctionDelegate {
    let name: String
    let title = TitleBar()
    let badge = BadgeLabel()
    /// Whether the user is typing in the screen's search field; the badge keeps still meanwhile.
    var isTyping = false
    /// The counts the screen refused, for the tour to tell.
    private(set) var refused: [Int] = []

    /// Creates a screen and attaches its controls: one line each, and no knowledge of carts or themes. The badge is
    /// attached with the screen as its delegate; the title bar joins its function itself.
    init(_ name: String, center: FunctionCenter) throws {
        self.name = name
        try center.attach(badge, to: .cartBadge, delegate: self)
        try title.join(.theme, in: center)
    }

    func shouldUpdate(_ badge: BadgeLabel, with count: Int) -> Bool {
        guard isTyping else { return true }
        refused.append(count)
        return false
    }

    /// `product (2) dark`: the name, the badge and the title bar's style.
    var rendered: String { "\(name) \(badge.rendered) \(title.style)" }
}
