import ServiceHive
import Support
import Testing

@Suite("Modules whose registrations declare their dependencies", .timeLimit(.minutes(5)))
struct DeclaredModuleTests {
    /// Registers `Orders` by initializer: it needs `Pricing` and `Books`.
    func orders(_ journal: Journal, needs: [ServiceHive.ServiceReference] = []) -> DeclaringModule {
        DeclaringModule(name: "Orders", needs: needs, journal: journal) { hive in
            try hive.register(
                Books.self, scope: .singleton, initializer: MemoryBooks.init as @Sendable () -> MemoryBooks)
            try hive.register(Orders.self, scope: .singleton, initializer: LiveOrders.init(pricing:ledger:))
        }
    }

    func pricing(_ journal: Journal) -> DeclaringModule {
        DeclaringModule(name: "Pricing", provides: [.service(Pricing.self)], journal: journal) { hive in
            try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
        }
    }

    @Test(
        "a module that uses a service it neither registers, needs, nor finds is refused, even when another provides it")
    func unmet() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        await #expect {
            try await hive.install([orders(journal), pricing(journal)])
        } throws: { error in
            "\(error)"
                == "Module Orders registers Orders, which needs Pricing by its parameter 1 (Pricing), but Orders does "
                + "not register it, does not list it in its `needs`, and the hive had not registered it before the "
                + "install. The install registered nothing, and no module started. To fix, add "
                + ".service(Pricing.self) to Orders's `needs` and install it with the module that provides it, or "
                + "register Pricing before installing."
        }
        #expect(hive.registrations.isEmpty, "the install was undone")
        #expect(journal.lines == ["register Orders", "register Pricing"], "no module started")
    }

    @Test("a refused install puts nothing in the hive, not even for a while: a reader during the install finds none")
    func refusedBeforeRegistering() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        try hive.register(Clock.self, instance: SystemClock())
        let seen = Locked<[String]>([])
        // Registers after Orders, given first, whose declared dependency nothing meets: it reads the hive as any reader
        // would.
        let reader = DeclaringModule(name: "Reader", journal: journal) { hive in
            seen.withLock { $0 = hive.registrations.map(\.service) + ["Orders: \(hive.isRegistered(Orders.self))"] }
        }
        await #expect(throws: ServiceHiveError.self) {
            try await hive.install([orders(journal, needs: []), reader])
        }
        #expect(seen.current == ["Clock", "Orders: false"], "what Orders registered never was in the hive")
        #expect(hive.registrations.map(\.service) == ["Clock"])
        #expect(journal.lines == ["register Orders", "register Reader"])
    }

    @Test("while its modules register, an install keeps what they register for itself: forwards and unregisters see it")
    func stagedRegistrations() async throws {
        let hive = ServiceHive()
        let module = DeclaringModule(name: "Store", journal: Journal()) { hive in
            try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
            try hive.forward(FixedPricing.self, to: Pricing.self) { $0 as! FixedPricing }
            try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 1) }
            #expect(hive.unregister(Books.self), "what the module registered, it may unregister")
            try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 2) }
        }
        try await hive.install(module)
        #expect(try hive.resolve(FixedPricing.self) === hive.resolve(Pricing.self))
        #expect(try hive.resolve(Books.self).entries == 2)
        #expect(hive.registrations.map(\.service) == ["Pricing", "FixedPricing", "Books"])
    }

    @Test("a registration that takes the place of one the hive has is refused at once, and the module may go on")
    func collisionWithTheHive() async throws {
        let hive = ServiceHive()
        try hive.register(Pricing.self) { FixedPricing() }
        let refused = Locked<String?>(nil)
        let module = DeclaringModule(name: "Store", journal: Journal()) { hive in
            do {
                try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
            } catch {
                refused.withLock { $0 = "\(error)" }
            }
            try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 1) }
        }
        try await hive.install(module)
        #expect(refused.current?.hasPrefix("Pricing is already registered") == true)
        #expect(hive.registrations.map(\.service) == ["Pricing", "Books"])
    }

    @Test(
        "two registrations of one install with one place fail the install, even when the module catches the error, naming both"
    )
    func duplicateWithinAnInstall() async throws {
        let hive = ServiceHive()
        let caught = Locked(false)
        let store = DeclaringModule(name: "Store", journal: Journal()) { hive in
            try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
            do {
                try hive.register(Pricing.self) { FixedPricing() }
            } catch {
                caught.withLock { $0 = true }
            }
            try hive.register(Books.self, scope: .singleton) { MemoryBooks(entries: 1) }
        }
        let thrown = await #expect(throws: ServiceHiveError.self) { try await hive.install(store) }
        #expect(!caught.current, "the second registration is refused when the install adds what its modules registered")
        guard case .moduleFailed(let module, .registration, let underlying) = thrown,
            case .alreadyRegistered(let key, let existing, let rejected) = underlying as? ServiceHiveError
        else {
            Issue.record("expected moduleFailed with alreadyRegistered, got \(String(describing: thrown))")
            return
        }
        #expect(module == "Store")
        #expect(key.description == "Pricing")
        #expect(existing.line < rejected.line, "the first registration stays named as the one that has the place")
        #expect(hive.registrations.isEmpty, "nothing of the install is left")
    }

    @Test("a declared dependency is met by a need that another module provides, or by the hive")
    func met() async throws {
        let journal = Journal()
        let hive = ServiceHive()
        try await hive.install([orders(journal, needs: [.service(Pricing.self)]), pricing(journal)])
        #expect(try hive.resolve(Orders.self).pricing.price("ab") == 2)
        #expect(hive.check().isClean)

        let other = ServiceHive()
        try other.register(Pricing.self, initializer: FixedPricing.init)
        try await other.install([orders(Journal())])
        #expect(other.isRegistered(Orders.self))
    }
}
