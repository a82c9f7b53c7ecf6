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
                + "install. The install was rolled back before any module started. To fix, add "
                + ".service(Pricing.self) to Orders's `needs` and install it with the module that provides it, or "
                + "register Pricing before installing."
        }
        #expect(hive.registrations.isEmpty, "the install was undone")
        #expect(journal.lines == ["register Orders", "register Pricing"], "no module started")
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
