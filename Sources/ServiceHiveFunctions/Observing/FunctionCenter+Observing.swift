extension FunctionCenter {
    /// The key's value as an `Observable` object, which SwiftUI views read and redraw with: shared by every caller,
    /// and updated by every post to the key that changes it.
    ///
    /// ```swift
    /// let count = try center.observed(.cartBadge)  // the cart's count now
    /// Text("\(count.value ?? 0)")                  // in a view's body: redrawn after each change
    /// ```
    ///
    /// The first call for a key makes the ``ObservedFunction`` with the key's current value, as a control gets it when
    /// attached: the function's current value, or else the last value delivered to the key, if either exists. Later
    /// calls give the same object, which every post since kept current, for as long as anyone holds it; the center
    /// holds it weakly.
    ///
    /// A post updates it after the key's controls, in the order of posting. When `Value` is `Equatable`, a value
    /// equal to the one it holds changes nothing and triggers no observation; otherwise every post changes it. See
    /// ``ObservedFunction`` for what applies to it.
    ///
    /// The first call for a key, whether it observes, attaches or asks for ``values(_:)``, looks the key's function
    /// up in ``hive`` and keeps it. When that fails, this throws and nothing is made.
    ///
    /// - Parameter key: The key of the function whose value to observe.
    /// - Returns: The key's observed value.
    /// - Throws: A ``FunctionError`` when the key's function can't be found or built: ``FunctionError/notRegistered(key:declaredAt:underlying:)``
    ///   names the key and the module that should register it.
    public func observed<Control, Value>(_ key: FunctionKey<Control, Value>) throws -> ObservedFunction<Value> {
        let state = state(of: key)
        let function = try function(of: state)
        if let existing = state.observed { return existing }
        let observed = ObservedFunction(value: function.currentValue?() ?? state.latest)
        state.setObserved(observed)
        return observed
    }

    /// The values delivered to a key, as an `AsyncSequence`: its current value first, then each value posted to the
    /// key, for code that isn't UI.
    ///
    /// ```swift
    /// let counts = try await center.values(.cartBadge)  // from any task
    /// for await count in counts {
    ///     print("the cart holds \(count) items")
    /// }
    /// ```
    ///
    /// The sequence follows the key from the moment this returns: its first value is the key's current value, as a
    /// control gets it when attached, if there is one; then it yields every value delivered to the key, in the order
    /// of posting, after the key's controls and observed value got it. At most one value waits for a slow consumer,
    /// the latest. It ends when the task that iterates it is cancelled, and when the center is released. See
    /// ``FunctionValues``.
    ///
    /// Values posted before the call and not yet delivered are delivered first, to every key, as
    /// ``postImmediately(_:to:)`` does, so that none of them comes after the current value: a business that posts each
    /// change as it makes it, as a cart service posts under its lock, is followed without going back to an older value.
    /// Called from inside an update, while the center is delivering, it can't deliver them first.
    ///
    /// Each call makes a new sequence, with a cursor of its own: iterate each from one task. The center holds it
    /// weakly, so a sequence nobody iterates any more costs nothing after the key's next post.
    ///
    /// - Parameter key: The key of the function whose values to follow.
    /// - Returns: The sequence of the key's values.
    /// - Throws: A ``FunctionError`` when the key's function can't be found or built, as
    ///   ``attach(_:to:delegate:userInfo:)`` does.
    public func values<Control, Value>(_ key: FunctionKey<Control, Value>) throws -> FunctionValues<Value> {
        let state = state(of: key)
        let function = try function(of: state)
        // The values posted before the current value was read, so that none of them comes after it.
        deliverPending()
        let stream = ValueStream(initial: function.currentValue?() ?? state.latest)
        state.add(stream)
        return FunctionValues(stream: stream)
    }
}
