extension FunctionCenter {
    /// Posts a value to every live control of a key, from any thread or task.
    ///
    /// ```swift
    /// Task.detached {
    ///     center.post(3, to: .cartBadge)
    /// }
    /// ```
    ///
    /// The same as posting through ``poster``: the value is queued, and applied on the main actor soon after, in the
    /// order of posting. See ``FunctionPoster/post(_:to:)``.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The key of the function whose controls show it.
    public nonisolated func post<Control, Value>(_ value: Value, to key: FunctionKey<Control, Value>) {
        poster.post(value, to: key)
    }

    /// Applies now, in the order they were posted, every value that is waiting to be delivered.
    ///
    /// The center delivers posted values by itself, on the main actor, soon after they are posted. Call this where
    /// you need them applied before going on: in a test, after a background thread posted, or in a tour that prints
    /// what its controls show.
    ///
    /// ```swift
    /// center.post(3, to: .cartBadge)
    /// center.deliverPending()
    /// #expect(badge.text == "3")
    /// ```
    ///
    /// Values posted while it runs, by an update for example, are applied before it returns. Called from inside an
    /// update, it returns at once: the delivery that runs the update applies the rest, in order.
    public func deliverPending() {
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        applyQueued()
    }

    /// Applies a value to every live control of a key now, through all the hooks, before it returns: JJComponentUpdateKit's
    /// `updateAllComponentWithObject:`.
    ///
    /// ```swift
    /// FunctionCenter.shared.postImmediately(5, to: .cartBadge)
    /// #expect(badge.text == "5")
    /// ```
    ///
    /// Values posted before it and not yet applied are applied first, in order, to every key, so the value applied
    /// last is still the value posted last: a badge never goes back to an older count. Values that the updates post,
    /// by ``post(_:to:)`` or by this method, are applied after it, before it returns.
    ///
    /// The value updates each control as a posted value does: through the function's `shouldUpdate`, the delegate's
    /// hooks and the update, in the order the controls were attached; it becomes the key's latest value, for
    /// controls attached later.
    ///
    /// Called from inside an update, while the center is already applying values, it queues the value instead: the
    /// delivery that runs that update applies it, in order, once the update returns.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The key of the function whose controls show it.
    public func postImmediately<Control, Value>(_ value: Value, to key: FunctionKey<Control, Value>) {
        guard !isDelivering else { return post(value, to: key) }
        isDelivering = true
        defer { isDelivering = false }
        applyQueued()
        apply(value, to: key)
        applyQueued()
    }

    /// Applies the next batch of queued values, for the delivery task that a post starts, and, while more wait, starts
    /// the next task, so that the main actor runs other work between batches.
    func deliverBatch() {
        guard !isDelivering else { return poster.inbox.scheduleNext(self) }
        isDelivering = true
        defer { isDelivering = false }
        let deliveries = poster.inbox.takeBatch()
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries { delivery(self) }
        poster.inbox.scheduleNext(self)
    }

    /// Applies every queued value, oldest first, including those posted while it runs.
    private func applyQueued() {
        while true {
            let deliveries = poster.inbox.takeAll()
            if deliveries.isEmpty { return }
            for delivery in deliveries { delivery(self) }
        }
    }

    /// Applies one posted value: it becomes the key's latest value, and updates every live control of the key, then
    /// its observed value and its sequences.
    func apply<Control, Value>(_ value: Value, to key: FunctionKey<Control, Value>) {
        let state = state(of: key)
        state.latest = value
        // The members as they are now: a control attached by one of these updates got the current value already.
        // One detached or released meanwhile has no control any more, and is skipped. With members comes the function.
        if state.hasMembers, let function = state.function {
            let members = state.members
            var released = 0
            for member in members {
                guard let control = member.control else {
                    released += 1
                    continue
                }
                member.update(control, with: value, by: function)
            }
            if released > 0 { sweep(state) }
        }
        if state.isObserved { state.deliverToObservers(value) }
    }
}
