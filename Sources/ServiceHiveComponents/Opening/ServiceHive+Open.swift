import ServiceHive

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ServiceHive {
    /// The longest URL that ``open(_:callback:)`` accepts: 2,048 bytes of its text.
    public static let maximumURLLength = 2_048

    // MARK: - Opening a URL

    /// Calls the command a URL names, `scheme://component/command?key=value&…`, with its query as the arguments.
    ///
    /// ```swift
    /// let reply = try await hive.open(URL(string: "shop://trade/order?item=hive-42&quantity=2")!)
    ///
    /// let tracked = try await hive.open(URL(string: "shop://trade/track?order=2")!) { update in
    ///     print(update)  // [order: 2, progress: 50]
    /// }
    /// ```
    ///
    /// A URL is input from outside the app, from a link, a push notification, a web view or another app, so it is
    /// treated as hostile:
    ///
    /// - Only commands declared `reachableByURL: true` answer; any other fails with
    ///   ``ComponentError/notReachableByURL(component:command:reachable:)``.
    /// - The component's and the command's names are compared exactly, as in a call from code: `shop://Trade/Order`
    ///   does not reach `trade/order`. Only the scheme is compared without regard to case.
    /// - Every value arrives as a `String`, percent-decoded as UTF-8, and converts without loss when the command
    ///   reads it as another type: `"2"` reads as `2`, while `"two"` read as `Int`, or as `Int?`, fails with
    ///   ``ComponentError/argumentTypeMismatch(component:command:argument:expected:found:)``. A key without a
    ///   value, `?note` or `?note=`, passes the empty text; only a key that is not there reads as `nil`.
    /// - A URL that is too long, malformed, or has a repeated or empty key, a path of more than one segment, an
    ///   escape that does not decode as UTF-8 (such as `%FF`), or a name that decodes to something other than a
    ///   plain name (such as `%2F` or `..`), fails with ``ComponentError/invalidURL(_:problem:)`` before anything
    ///   is looked up. Nothing traps.
    /// - The scheme is ignored, unless the hive accepts a list of schemes with
    ///   ``acceptURLSchemes(_:file:line:)``.
    ///
    /// A URL to a component or command that does not exist goes to the fallback, when one is registered with
    /// ``registerComponentFallback(file:line:_:)``; the command's ``ComponentCall/url`` is then set.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    /// - Returns: The command's reply.
    /// - Throws: A ``ComponentError``: those above, and those of ``call(_:_:arguments:callback:)-3f291``; or, as
    ///   that call, a `ServiceHiveError` when the hive refuses the lookup.
    nonisolated(nonsending) public func open(
        _ url: URL,
        callback: (@Sendable (ComponentReply) -> Void)? = nil
    ) async throws -> ComponentReply {
        try await perform(call(for: url, callback: callback))
    }

    /// Calls the command a URL names and hands the outcome to a completion handler: the form for code that is
    /// neither `async` nor able to wait, such as an app delegate handed a URL, or a completion-based router.
    ///
    /// ```swift
    /// hive.open(url) { result in
    ///     switch result {
    ///     case .success(let reply): print(reply)
    ///     case .failure(let error): print(error)  // a ComponentError, or the hive's ServiceHiveError
    ///     }
    /// }
    /// ```
    ///
    /// The URL is checked as ``open(_:callback:)`` checks it. A URL that is refused, and a synchronous command, call
    /// `completion` before this returns. An `async` command runs in a new `Task`, which inherits the overrides of
    /// the calling task, and `completion` runs on that task when it ends, not on the caller's actor: to update the
    /// UI, hop to the main actor in `completion`.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - callback: Receives what the command sends with ``ComponentCall/callback(_:)``, at once, on the thread and
    ///     in the task that send it: before the call returns, unless the command calls back later.
    ///   - completion: Receives the reply, or the error that ``open(_:callback:)`` would throw: a ``ComponentError``,
    ///     or a `ServiceHiveError` when the hive refuses the lookup.
    public func open(
        _ url: URL,
        callback: (@Sendable (ComponentReply) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ComponentReply, any Error>) -> Void
    ) {
        do throws(ComponentError) {
            perform(try call(for: url, callback: callback), completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// The call that `url` makes, once it is parsed and its scheme is accepted.
    private func call(
        for url: URL,
        callback: (@Sendable (ComponentReply) -> Void)?
    ) throws(ComponentError) -> ComponentCall {
        let request = try ComponentURL(parsing: url.absoluteString)
        try checkScheme(of: request, url)
        return ComponentCall(
            component: request.component, command: request.command, arguments: request.arguments, resolver: resolver,
            url: url, callback: callback)
    }

    /// Whether ``open(_:callback:)`` would run a command for this URL: it is well formed, its scheme is accepted, and it
    /// names a command declared reachable by URL. Runs nothing, and ignores the fallback.
    ///
    /// ```swift
    /// if hive.canOpen(url) { Task { try await hive.open(url) } }
    /// ```
    ///
    /// The arguments are not checked: the command reads them when it runs.
    ///
    /// - Parameter url: The URL.
    /// - Returns: `true` when a command reachable by URL would answer.
    public func canOpen(_ url: URL) -> Bool {
        guard let request = try? ComponentURL(parsing: url.absoluteString),
            (try? checkScheme(of: request, url)) != nil,
            let component = try? resolve(Component.self, name: request.component),
            let declared = component.commands[request.command],
            let command = try? resolve(ComponentCommand.self, name: declared.key)
        else { return false }
        return component.isReachableByURL(command)
    }

    // MARK: - Schemes

    /// Makes ``open(_:callback:)`` accept only URLs with one of `schemes`, compared without regard to case. Without it, the
    /// scheme is ignored.
    ///
    /// ```swift
    /// try hive.acceptURLSchemes(["shop"])
    /// try await hive.open(URL(string: "http://trade/order")!)  // invalidURL: the scheme is not accepted
    /// ```
    ///
    /// It is a registration, so a child hive inherits it and may register its own list, an override can replace it,
    /// and it is rolled back with the install of the module that made it.
    ///
    /// - Parameters:
    ///   - schemes: The accepted schemes, such as `["shop"]`. An empty list accepts no URL.
    ///   - file: The file of the registration, recorded for errors and introspection.
    ///   - line: The line of the registration.
    /// - Throws: The hive's `ServiceHiveError.alreadyRegistered` when this hive already has a list.
    public func acceptURLSchemes(_ schemes: [String], file: String = #fileID, line: UInt = #line) throws {
        try register(AcceptedURLSchemes.self, instance: AcceptedURLSchemes(schemes), file: file, line: line)
    }

    /// Refuses a URL whose scheme the hive does not accept, when it accepts a list.
    private func checkScheme(of request: ComponentURL, _ url: URL) throws(ComponentError) {
        guard isRegistered(AcceptedURLSchemes.self), let accepted = try? resolve(AcceptedURLSchemes.self) else {
            return
        }
        guard !accepted.schemes.contains(request.scheme.lowercased()) else { return }
        throw .invalidURL(
            ComponentNames.printable(url.absoluteString, limit: 160),
            problem: .schemeNotAccepted(ComponentNames.printable(request.scheme, limit: 40), accepted: accepted.listed))
    }

    /// The error for a URL to a command that is not reachable by URL, listing those that are, as this hive would run
    /// them.
    func unreachable(_ component: Component, _ command: ComponentCommand) -> ComponentError {
        let reachable = component.commands.filter { declared in
            guard let command = try? resolve(ComponentCommand.self, name: declared.value.key) else { return false }
            return component.isReachableByURL(command)
        }
        return .notReachableByURL(component: component.name, command: command.name, reachable: reachable.keys.sorted())
    }
}
