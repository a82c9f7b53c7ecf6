/// Posts business values to a ``FunctionCenter`` from any thread or task.
///
/// Business services hold a poster, not the center: it is `Sendable`, and it does not keep the center alive. Register
/// the center's poster in the hive, and let the services that own the business post through it:
///
/// ```swift
/// try hive.register(FunctionPoster.self, instance: center.poster)
///
/// // In the cart service, after the cart changed:
/// poster.post(totalQuantity, to: .cartBadge)
/// ```
///
/// **Order.** Posting only queues the value; the center applies it on the main actor soon after, or when
/// ``FunctionCenter/deliverPending()`` is called, whichever comes first. Values apply in the order of one queue, so
/// the values that one thread or task posts apply in the order it posted them, to every key. Values posted at the
/// same moment from different threads apply in some order, each whole: a control never sees half of one post.
///
/// **Bounds.** A poster that never pauses can't starve the main actor or grow memory: the center applies at most
/// 1,024 values at a time before the main actor runs other work, and once 8,192 values wait, each key keeps only the
/// latest of its waiting values. Every key still ends at the value posted to it last, and no value applies after a
/// newer one of its key; only values that a newer one of their key overtook while the queue was full are skipped.
///
/// Posting to a center that has been released does nothing.
public struct FunctionPoster: Sendable {
    /// The queue of the center this poster posts to.
    let inbox: Inbox

    /// Posts a value to every live control of a key.
    ///
    /// ```swift
    /// poster.post(3, to: .cartBadge)
    /// ```
    ///
    /// When the value is applied, it becomes the key's latest value, and each control attached to the key is updated
    /// through its hooks, in the order the controls were attached. A key with no control keeps the value for controls
    /// attached later, when its function has no current value of its own.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The key of the function whose controls show it.
    public func post<Control, Value>(_ value: Value, to key: FunctionKey<Control, Value>) {
        inbox.post(
            { center in center.apply(value, to: key) },
            to: Inbox.PostedKey(
                name: key.name, control: ObjectIdentifier(Control.self), value: ObjectIdentifier(Value.self)))
    }
}
