import ServiceHive
import Support
import Testing

// The code of the article "Scopes and Lifetimes", compiled and run here. `DocumentationSnippetTests` checks that the
// article and these regions stay the same.

/// The article's types, in a namespace of their own so that they don't clash with the README's.
enum ScopesArticle {
    protocol Clock: AnyObject, Sendable {}

    final class SystemClock: Clock {}

    struct Header: Sendable {
        let clock: any Clock
    }

    struct Footer: Sendable {
        let clock: any Clock
    }

    struct Report: Sendable {
        let header: Header
        let footer: Footer
    }

    protocol Session: Sendable {
        var user: String { get }
    }

    struct UserSession: Session {
        let user: String
    }

    final class Basket: Sendable {
        let session: any Session
        init(session: any Session) { self.session = session }
    }

    final class Recommendations: Sendable {
        let basket: Basket
        init(basket: Basket) { self.basket = basket }
    }

    final class Catalog: Sendable {}

    /// Signs in ada, then grace.
    final class Accounts: Sendable {
        private let signIns = Locked(0)
        func signIn() -> String { signIns.increment() == 1 ? "ada" : "grace" }
    }

    struct Receipt: Sendable {
        let number: Int
    }
}

extension ScopesArticle {
    @Suite("Scopes and Lifetimes: the scopes", .timeLimit(.minutes(5)))
    struct ScopeTests {
        @Test("a graph instance is shared within one top-level resolve, and new in the next")
        func graph() throws {
            // snippet: scopes-graph
            let hive = ServiceHive()
            try hive.register(Clock.self, scope: .graph) { SystemClock() }
            try hive.register(Header.self) { r in Header(clock: try r.resolve()) }
            try hive.register(Footer.self) { r in Footer(clock: try r.resolve()) }
            try hive.register(Report.self) { r in Report(header: try r.resolve(), footer: try r.resolve()) }

            let report = try hive.resolve(Report.self)
            print(report.header.clock === report.footer.clock)  // true: one clock for this report
            // end-snippet
            #expect(report.header.clock === report.footer.clock)
            let next = try hive.resolve(Report.self)
            #expect(next.header.clock !== report.header.clock, "the next report gets a clock of its own")
        }

        @Test("a weak instance lives while held, and a value type fails with weakRequiresClass")
        func weak() throws {
            let hive = ServiceHive()
            try hive.register(Clock.self, scope: .weak) { SystemClock() }
            try hive.register(Receipt.self, scope: .weak) { Receipt(number: 1) }
            var held: (any Clock)? = try hive.resolve(Clock.self)
            let identity = ObjectIdentifier(held!)
            #expect(try ObjectIdentifier(hive.resolve(Clock.self)) == identity, "shared while held")
            weak let released = held
            held = nil
            #expect(released == nil, "the hive never keeps it alive")
            let refused = Result { try hive.resolve(Receipt.self) }
            guard case .failure(ServiceHiveError.weakRequiresClass(let key, instanceType: "Receipt")) = refused else {
                Issue.record("expected weakRequiresClass, got \(refused)")
                return
            }
            #expect(key.service == "Receipt")
        }

        @Test("an async factory cannot be registered weak")
        func asyncWeak() throws {
            let hive = ServiceHive()
            let refused = Result { try hive.register(Clock.self, scope: .weak) { _ async throws in SystemClock() } }
            guard case .failure(ServiceHiveError.registrationRefused(let key, _, _)) = refused else {
                Issue.record("expected registrationRefused, got \(refused)")
                return
            }
            #expect(key.service == "Clock")
        }

        @Test("registrations with runtime arguments build anew on every resolve")
        func argumentsAreTransient() throws {
            let hive = ServiceHive()
            try hive.register(Basket.self) { (_: ServiceHive.Resolver, user: String) in
                Basket(session: UserSession(user: user))
            }
            #expect(try hive.resolve(Basket.self, arguments: "ada") !== hive.resolve(Basket.self, arguments: "ada"))
        }
    }
}

// snippet: scopes-named
extension ServiceHive.Scope {
    static let userSession = Self.named("user-session")
}

extension ScopesArticle {
    @Suite("Scopes and Lifetimes: named scopes and resets", .timeLimit(.minutes(5)))
    struct ResetTests {
        @Test("a reset of the session drops its instances and what was built from them, and keeps the rest")
        func namedScope() throws {
            let accounts = Accounts()
            let hive = ServiceHive()
            try hive.register(Session.self, scope: .userSession) { UserSession(user: accounts.signIn()) }
            try hive.register(Basket.self, scope: .userSession) { r in Basket(session: try r.resolve()) }
            try hive.register(Recommendations.self, scope: .singleton) { r in Recommendations(basket: try r.resolve()) }
            try hive.register(Catalog.self, scope: .singleton) { Catalog() }
            let catalog = try hive.resolve(Catalog.self)

            let basket = try hive.resolve(Basket.self)  // ada's
            let recommendations = try hive.resolve(Recommendations.self)  // built from ada's basket
            #expect(try hive.resolve(Basket.self) === basket, "shared like a singleton until the reset")
            hive.resetInstances(in: .userSession)  // ada signs out
            let next = try hive.resolve(Basket.self)  // grace's
            // end-snippet
            #expect(basket.session.user == "ada")
            #expect(next.session.user == "grace")
            #expect(next !== basket)
            let rebuilt = try hive.resolve(Recommendations.self)
            #expect(rebuilt !== recommendations && rebuilt.basket === next)
            #expect(try hive.resolve(Catalog.self) === catalog, "built from nothing that was reset")
        }

        @Test("a reset of one type drops it and what was built from it; resetInstances() drops everything")
        func resetByType() throws {
            let hive = ServiceHive()
            let accounts = Accounts()
            try hive.register(Session.self, scope: .singleton) { UserSession(user: accounts.signIn()) }
            try hive.register(Basket.self, scope: .singleton) { r in Basket(session: try r.resolve()) }
            try hive.register(Catalog.self, scope: .singleton) { Catalog() }
            let basket = try hive.resolve(Basket.self)
            let catalog = try hive.resolve(Catalog.self)

            hive.resetInstances(of: Session.self)
            let next = try hive.resolve(Basket.self)
            #expect(next !== basket && next.session.user == "grace")
            #expect(try hive.resolve(Catalog.self) === catalog)

            hive.resetInstances()
            #expect(try hive.resolve(Catalog.self) !== catalog)
            #expect(hive.registrations.count == 3, "the registrations stay")
        }

        @Test(
            "a parent's reset reaches children's instances built from what it dropped; a child's reset never the parent"
        )
        func resetsAndChildren() throws {
            let accounts = Accounts()
            let app = ServiceHive()
            try app.register(Session.self, scope: .userSession) { UserSession(user: accounts.signIn()) }
            try app.register(Catalog.self, scope: .singleton) { Catalog() }
            let child = ServiceHive(parent: app)
            try child.register(Basket.self, scope: .singleton) { r in Basket(session: try r.resolve()) }
            let basket = try child.resolve(Basket.self)
            let catalog = try app.resolve(Catalog.self)

            child.resetInstances()
            #expect(try app.resolve(Catalog.self) === catalog, "a child's reset leaves the parent alone")
            #expect(try child.resolve(Basket.self).session.user == "ada", "ada's session is still the parent's")
            let again = try child.resolve(Basket.self)
            #expect(again !== basket)

            app.resetInstances(in: .userSession)
            #expect(try child.resolve(Basket.self) !== again, "built from the dropped session, so dropped with it")
            #expect(try child.resolve(Basket.self).session.user == "grace")
        }
    }
}

extension ScopesArticle {
    @Suite("Scopes and Lifetimes: child hives", .timeLimit(.minutes(5)))
    struct ChildTests {
        @Test("a request's child provides its session, and the app's transient is built with it")
        func child() throws {
            // snippet: scopes-child
            let app = ServiceHive()
            try app.register(Basket.self) { r in Basket(session: try r.resolve()) }
            try app.register(Catalog.self, scope: .singleton) { Catalog() }

            // For each request:
            let request = app.child { $0.provide(Session.self, UserSession(user: "ada")) }
            let basket = try request.resolve(Basket.self)  // the app's factory, built with this request's session
            // end-snippet
            #expect(basket.session.user == "ada")
            #expect(try request.resolve(Catalog.self) === app.resolve(Catalog.self), "the app's singleton is shared")
            #expect(!app.isRegistered(Session.self), "the parent never sees the child's")
            #expect(request.visibleRegistrations.map(\.service) == ["Session", "Basket", "Catalog"])
        }

        @Test("a parent's singleton never captures a child's session: it fails, and the error points at the child")
        func parentSingletonNeverCaptures() throws {
            let app = ServiceHive()
            try app.register(Basket.self, scope: .singleton) { r in Basket(session: try r.resolve()) }
            let request = app.child { $0.provide(Session.self, UserSession(user: "ada")) }
            let refused = Result { try request.resolve(Basket.self) }
            guard case .failure(let error) = refused, case ServiceHiveError.notRegistered(let key, let chain) = error
            else {
                Issue.record("expected notRegistered, got \(refused)")
                return
            }
            #expect(key.service == "Session" && chain.map(\.service) == ["Basket"])
            #expect("\(error)".contains("child hives provide it"))
        }

        @Test("a child made with init(parent:) registers like any hive, and shadows its parent")
        func childWithRegistrations() throws {
            let app = ServiceHive()
            try app.register(Session.self) { UserSession(user: "app") }
            try app.register(Basket.self) { r in Basket(session: try r.resolve()) }
            let request = ServiceHive(parent: app)
            try request.register(Session.self, instance: UserSession(user: "ada"))
            #expect(try request.resolve(Basket.self).session.user == "ada")
            #expect(try app.resolve(Basket.self).session.user == "app")
        }
    }
}
