import ServiceHive
import Support
import Testing

@Suite("Checking a large graph", .timeLimit(.minutes(5)))
struct LargeGraphCheckTests {
    /// 1,000 registrations: a tree of 960 singleton ledgers, each declaring the pricing and its parent; a ring of 30
    /// transient ledgers, each declaring the next; a ledger that declares one nobody registers; a singleton report
    /// that keeps, through a transient reader, a ledger of a named scope; and 5 closures that declare nothing.
    @Test("the check of 1,000 registrations reports its unmet dependency, its cycle and its captive dependency in full")
    func largeGraph() throws {
        let hive = ServiceHive()
        try hive.register(Pricing.self, scope: .singleton, initializer: FixedPricing.init)
        for index in 0..<960 {
            let parent: [ServiceHive.Dependency] = index == 0 ? [] : [.on(Books.self, name: "tree-\((index - 1) / 2)")]
            try hive.register(
                Books.self, name: "tree-\(index)", scope: .singleton, dependsOn: [.on(Pricing.self)] + parent
            ) { _ in MemoryBooks() }
        }
        let ringLine = #line + 2
        for index in 0..<30 {
            try hive.register(
                Books.self, name: "ring-\(index)", dependsOn: [.on(Books.self, name: "ring-\((index + 1) % 30)")]
            ) { _ in MemoryBooks() }
        }
        let orphanLine = #line + 1
        try hive.register(Books.self, name: "orphan", dependsOn: [.on(Books.self, name: "missing")]) { _ in
            MemoryBooks()
        }
        try hive.register(Books.self, name: "session", scope: .named("session"), dependsOn: []) { _ in MemoryBooks() }
        try hive.register(BooksReader.self, dependsOn: [.on(Books.self, name: "session")]) { r in
            BooksReader(ledger: try r.resolve(name: "session"))
        }
        let reportLine = #line + 1
        try hive.register(BooksReport.self, scope: .singleton, dependsOn: [.on(BooksReader.self)]) { r in
            BooksReport(reader: try r.resolve())
        }
        for index in 0..<5 {
            try hive.register(Orders.self, name: "opaque-\(index)") { LiveOrders(pricing: FixedPricing()) }
        }
        #expect(hive.registrations.count == 1_000)

        let report = hive.check()
        let file = "ServiceHiveTests/LargeGraphCheckTests.swift"
        let ring = (0..<30).map { "Books (name: \"ring-\($0)\")" }
        #expect(report.checked == 995)
        #expect(report.unchecked.map(\.key.name) == (0..<5).map { "opaque-\($0)" })
        // The texts of the check before it walked indexes, for the same graph.
        #expect(
            report.problems.map(\.description) == [
                "Books (name: \"orphan\"), registered at \(file):\(orphanLine), needs Books (name: \"missing\") by its "
                    + "parameter 1 (Books), which nothing registers. Did you mean Books (name: \"tree-0\"), "
                    + "Books (name: \"tree-1\") or Books (name: \"tree-2\")? To fix, register it: "
                    + "try hive.register(Books.self, name: \"missing\") { … }, or take it as Books? if it may be missing.",
                "Declared dependencies form a cycle: " + (ring + [ring[0]]).joined(separator: " —parameter 1 (Books)→ ")
                    + ". Building any of them needs itself first ("
                    + ring.map { "\($0) at \(file):\(ringLine)" }.joined(separator: "; ")
                    + "). To fix, take one link as ServiceHive.Lazy<…> or ServiceHive.Provider<…>, which resolves it "
                    + "later, or move what both need into a service of its own.",
                "BooksReport, a singleton registered at \(file):\(reportLine), would hold Books (name: \"session\") by "
                    + "its parameter 1 (BooksReader) through BooksReader, but it lives in the scope session, shorter than "
                    + "the singleton. The singleton would keep one past its time. To fix, take it as "
                    + "ServiceHive.Provider<Books>, which resolves it on every use, or give BooksReport a scope no longer "
                    + "than session.",
            ])
    }
}
