import ServiceHive
import Support
import TradeModule

extension Tour {
    /// The tour's chapter on a customer's session: a customer signs in, browses and checks out; signing out drops
    /// every instance of the session scope at once, and the next customer gets new ones, while the singletons stay.
    /// The basket resolves the trade service lazily, at its first checkout, as a trace of that one resolve shows.
    ///
    /// It runs in a hive of its own, with the app's modules, so that nothing has resolved the trade service before;
    /// the trace prints without timings, so the chapter prints the same lines every run.
    func sessionChapter(number: Int) async throws {
        let say = section(
            number, "A customer's session, dropped on signing out",
            "Session services are shared until the app resets the session scope; singletons stay.")

        let hive = ServiceHive()
        try await hive.install(modules)
        let session = try hive.resolve(CustomerSession.self)
        session.signIn(customerId: "customer-7")
        for item in ["smoker", "honey-jar"] { try hive.resolve(CustomerSession.self).view(itemId: item) }
        say("sign in   customer-7, who views smoker, then honey-jar")
        say("viewed    \(session.recentlyViewed.joined(separator: ", ")), the most recent first")
        let basket = try hive.resolve(Basket.self)
        basket.add(itemId: "honey-jar", quantity: 2)
        let shared = try hive.resolve(Basket.self) === basket && hive.resolve(CustomerSession.self) === session
        say("basket    \(basket.customerId)'s, \(shared ? "the same on every resolve" : "a new one on each resolve")")

        let traces = Locked<[ServiceHive.Trace]>([])
        hive.trace = { trace in traces.withLock { $0.append(trace) } }
        let orders = try basket.checkout()
        hive.trace = nil
        say("checkout  \(orders.map(\.description).joined(separator: "; "))")
        say("trace     The basket holds a Lazy<any TradeService>, resolved at its first checkout. That resolve:")
        for trace in traces.withLock({ $0 }) {
            for line in trace.untimedLines(in: hive) { say("          \(line)") }
        }

        let trade = try hive.resolve(TradeService.self)
        let inventory = try hive.resolve(InventoryService.self)
        hive.resetInstances(in: .session)
        say("sign out  hive.resetInstances(in: .session)")
        let next = try hive.resolve(CustomerSession.self)
        let nextBasket = try hive.resolve(Basket.self)
        say(
            "rebuilt   \(next === session ? "the same session" : "a new session"), of a \(nextBasket.customerId), "
                + "\(next.recentlyViewed.isEmpty ? "nothing viewed" : "items viewed"), and "
                + "\(nextBasket === basket ? "the same basket" : "a new basket")")
        next.signIn(customerId: "customer-9")
        nextBasket.add(itemId: "smoker", quantity: 1)
        say("sign in   customer-9, whose basket it is now: \(nextBasket.customerId)")
        say("checkout  \(try nextBasket.checkout().map(\.description).joined(separator: "; "))")
        let sameTrade = try hive.resolve(TradeService.self) as AnyObject === trade as AnyObject
        let sameInventory = try hive.resolve(InventoryService.self) as AnyObject === inventory as AnyObject
        say(
            "kept      \(sameTrade ? "the same" : "a new") TradeService, numbering orders on, and "
                + "\(sameInventory ? "the same" : "a new") inventory: "
                + "\(try hive.resolve(StockReader.self).stock(of: "honey-jar") ?? 0) of honey-jar left")
        await hive.shutdown()
    }
}
