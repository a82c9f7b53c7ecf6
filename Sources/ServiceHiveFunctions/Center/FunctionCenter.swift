import ServiceHive

/// Keeps the controls that show business functions, and updates every live control of a key when a value is posted.
///
/// A screen attaches a control to a ``FunctionKey``; the center finds the key's ``BusinessFunction`` in the hive and
/// shows the current value at once. Business code posts new values from any thread or task, and every live control
/// of the key is updated on the main actor, in the order the values were posted:
///
/// ```swift
/// let center = FunctionCenter(hive: hive)
/// try center.attach(homeBadge, to: .cartBadge)      // shows the cart's count now
/// try center.attach(productBadge, to: .cartBadge)
///
/// center.post(3, to: .cartBadge)                    // from any thread or task
/// center.deliverPending()                           // on the main actor: apply now rather than soon
/// ```
///
/// **Lifetimes.** The center holds controls, delegates and observers weakly and never keeps any of them alive. A
/// control that is released without being detached is never touched again; it is swept from its key at the key's
/// next post, and costs nothing after that.
///
/// **Observing.** Views and code that don't join as controls follow a key too: ``observed(_:)`` gives its value as an
/// `Observable` object for SwiftUI, and ``values(_:)`` as an `AsyncSequence`. The same posts update them, after the
/// key's controls.
///
/// **Threading.** Controls live on the main actor, and so do the center's methods that attach, detach, list, observe
/// and deliver. ``post(_:to:)`` and ``poster`` can be used from anywhere; see ``FunctionPoster`` for the order
/// guarantee. Posted values are delivered by a main-actor task, so they need the main actor to run: an app's main
/// run loop, `dispatchMain()`, or an `async` main that awaits. Where it doesn't, call ``deliverPending()``.
///
/// **Functions.** The center looks a key's function up in its hive the first time a control is attached to the key,
/// or the key is observed, in the caller's task, so inside `withOverrides` it finds the override, and keeps it from
/// then on.
@MainActor
public final class FunctionCenter {
    /// The center of `ServiceHive.shared`, as the hive has `ServiceHive.shared`: the one an app uses when it has one
    /// hive, and the one a ``BusinessControl`` joins by default.
    ///
    /// ```swift
    /// try FunctionCenter.shared.attach(badge, to: .cartBadge)
    /// FunctionCenter.shared.postImmediately(5, to: .cartBadge)
    /// ```
    ///
    /// It is made on first use. Like any center, it keeps a key's function from the first attach to the key: a test
    /// that swaps functions with `withOverrides` is simpler with a center of its own, `FunctionCenter(hive:)`, made
    /// inside the override.
    public static let shared = FunctionCenter(hive: .shared)

    /// The hive the center finds functions in.
    public let hive: ServiceHive

    /// Posts values to this center from any thread or task, without keeping the center alive.
    ///
    /// Register it in the hive so that business services can post without knowing the center:
    ///
    /// ```swift
    /// try hive.register(FunctionPoster.self, instance: center.poster)
    /// ```
    public nonisolated let poster: FunctionPoster

    /// The state of every key that has been attached to or posted to.
    private var keys: [KeyIdentity: any AnyKeyState] = [:]
    /// The membership of every attached control, by identity. An entry may outlive its control until its key is
    /// swept; ``attach(_:to:delegate:userInfo:)`` checks that an entry's control is the one it is given.
    private var memberships: [ObjectIdentifier: any AnyMember] = [:]
    /// Whether ``deliverPending()`` is applying values, so that a call from inside an update returns at once.
    var isDelivering = false

    /// Every center made, held weakly, so that ``BusinessControl/leave()`` finds the centers a control joined. The
    /// released ones are dropped when the next center is made.
    private static var all: [WeakCenter] = []

    /// Creates a center that finds functions in `hive`.
    ///
    /// - Parameter hive: The hive the owning modules registered their functions in; `ServiceHive.shared` by default.
    public init(hive: ServiceHive = .shared) {
        self.hive = hive
        poster = FunctionPoster(inbox: Inbox())
        poster.inbox.connect(self)
        Self.all.removeAll { $0.center == nil }
        Self.all.append(WeakCenter(center: self))
    }

    deinit {
        poster.inbox.close()
    }

    // MARK: - Attaching

    /// Attaches a control to a key: from now on, every value posted to the key updates the control.
    ///
    /// ```swift
    /// try center.attach(badge, to: .cartBadge)
    /// try center.attach(badge, to: .cartBadge, delegate: screen, userInfo: ["style": "compact"])
    /// ```
    ///
    /// The control gets the key's current value at once, through the same hooks as a posted value: the function's
    /// current value, or else the last value delivered to the key, if either exists. Values still waiting to be
    /// delivered are applied after it, in order.
    ///
    /// A control belongs to one key at a time. Attaching it again to the same key keeps its place, takes the new
    /// delegate and `userInfo`, and shows the current value again; it is still updated once per post. Attaching it
    /// to another key of the same control type moves it there.
    ///
    /// The first attach to a key looks its function up in ``hive`` and keeps it. When that fails, this throws and
    /// nothing changes: the control stays where it was.
    ///
    /// - Parameters:
    ///   - control: The control. The center holds it weakly.
    ///   - key: The key of the function that updates it.
    ///   - delegate: An object whose hooks run around each update of this control, or `nil`. Held weakly.
    ///   - userInfo: Values the function's closures receive with this control.
    /// - Throws: A ``FunctionError`` when the key's function can't be found or built: ``FunctionError/notRegistered(key:declaredAt:underlying:)``
    ///   names the key and the module that should register it.
    public func attach<Control, Value>(
        _ control: Control,
        to key: FunctionKey<Control, Value>,
        delegate: (any FunctionDelegate<Control, Value>)? = nil,
        userInfo: BusinessFunction<Control, Value>.UserInfo = [:]
    ) throws {
        let state = state(of: key)
        let function = try function(of: state)
        let id = ObjectIdentifier(control)
        let member: Member<Control, Value>
        if let existing = memberships[id], existing.object === control {
            if let same = existing as? Member<Control, Value>, same.state === state {
                same.delegate = delegate
                same.hasDelegate = delegate != nil
                same.userInfo = userInfo
                member = same
            } else {
                existing.leave()
                member = join(control, state, delegate: delegate, userInfo: userInfo)
            }
        } else {
            member = join(control, state, delegate: delegate, userInfo: userInfo)
        }
        if let value = function.currentValue?() ?? state.latest {
            member.update(control, with: value, by: function)
        }
    }

    /// Detaches a control from its key. Detaching a control that is not attached does nothing.
    ///
    /// There is no need to detach a control before releasing it: the center holds it weakly and forgets it.
    ///
    /// - Parameter control: The control.
    /// - Returns: Whether the control was attached.
    @discardableResult
    public func detach(_ control: AnyObject) -> Bool {
        let id = ObjectIdentifier(control)
        guard let existing = memberships[id], existing.object === control else { return false }
        existing.leave()
        memberships[id] = nil
        return true
    }

    /// Detaches `control` in every center it is attached in; for ``BusinessControl/leave()``.
    ///
    /// - Returns: Whether any center had it.
    static func detachEverywhere(_ control: AnyObject) -> Bool {
        all.reduce(false) { detached, weak in (weak.center?.detach(control) ?? false) || detached }
    }

    /// The live controls attached to a key, in the order they were attached.
    ///
    /// - Parameter key: The key.
    /// - Returns: The controls that are attached and not released.
    public func controls<Control, Value>(of key: FunctionKey<Control, Value>) -> [Control] {
        guard let state = existingState(of: key) else { return [] }
        return state.members.compactMap(\.control)
    }

    // MARK: - Keys and members

    /// Adds a member for `control` at the end of `state`'s members, sweeping them first when they have grown.
    private func join<Control, Value>(
        _ control: Control,
        _ state: KeyState<Control, Value>,
        delegate: (any FunctionDelegate<Control, Value>)?,
        userInfo: BusinessFunction<Control, Value>.UserInfo
    ) -> Member<Control, Value> {
        if state.members.count >= state.sweepThreshold { sweep(state) }
        let member = Member(control, delegate: delegate, userInfo: userInfo, state: state)
        state.members.append(member)
        state.hasMembers = true
        memberships[member.id] = member
        return member
    }

    /// Drops the members whose control is released or detached, keeping the order of the rest, and forgets them.
    func sweep<Control, Value>(_ state: KeyState<Control, Value>) {
        state.members.removeAll { member in
            guard member.control == nil else { return false }
            if let entry = memberships[member.id], entry === member { memberships[member.id] = nil }
            return true
        }
        state.sweepThreshold = max(KeyState<Control, Value>.minimumSweepThreshold, state.members.count * 2)
        state.hasMembers = !state.members.isEmpty
    }

    /// The state of `key`, created empty the first time.
    func state<Control, Value>(of key: FunctionKey<Control, Value>) -> KeyState<Control, Value> {
        if let state = existingState(of: key) { return state }
        let state = KeyState(key: key)
        keys[KeyIdentity(key)] = state
        return state
    }

    /// The state of `key`, if it was ever attached to or posted to.
    private func existingState<Control, Value>(of key: FunctionKey<Control, Value>) -> KeyState<Control, Value>? {
        guard let state = keys[KeyIdentity(key)] else { return nil }
        // Safe: a key identity includes the key's type, and `state(of:)`, the only writer of `keys`, stores under
        // a key of type `FunctionKey<Control, Value>` a `KeyState<Control, Value>`.
        return (state as! KeyState<Control, Value>)
    }

    /// The function of `state`'s key: the one found before, or else the one the hive resolves now, which is kept.
    func function<Control, Value>(of state: KeyState<Control, Value>) throws -> BusinessFunction<
        Control, Value
    > {
        if let function = state.function { return function }
        let key = state.key
        let service = ServiceHive.ServiceKey(BusinessFunction<Control, Value>.self, name: key.name)
        do {
            let function = try hive.resolve(BusinessFunction<Control, Value>.self, name: key.name)
            state.function = function
            return function
        } catch ServiceHiveError.notRegistered(let missing, let chain) where missing == service && chain.isEmpty {
            throw FunctionError.notRegistered(
                key: key.description, declaredAt: "\(key.fileID):\(key.line)",
                underlying: .notRegistered(missing, chain: chain))
        } catch let error as ServiceHiveError {
            throw FunctionError.unavailable(key: key.description, underlying: error)
        }
    }
}

/// A center, held weakly.
private struct WeakCenter {
    weak var center: FunctionCenter?
}

/// A key's identity among all keys: its name and its type, so that keys of the same name and different types stay
/// apart, as their functions do in the hive.
struct KeyIdentity: Hashable {
    let name: String
    let type: ObjectIdentifier

    init<Control, Value>(_ key: FunctionKey<Control, Value>) {
        name = key.name
        type = ObjectIdentifier(FunctionKey<Control, Value>.self)
    }
}
