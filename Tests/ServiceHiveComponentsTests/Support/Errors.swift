import ServiceHive
import ServiceHiveComponents
import Testing

/// The error of type `Failure` that `body` throws, a ``ComponentError`` unless told otherwise; or `nil` after
/// recording an issue when it throws nothing or another error.
func error<Failure: Error>(
    _: Failure.Type = ComponentError.self,
    sourceLocation: SourceLocation = #_sourceLocation,
    from body: () throws -> Void
) -> Failure? {
    do {
        try body()
        return expectedError(nil, as: Failure.self, sourceLocation)
    } catch {
        return expectedError(error, as: Failure.self, sourceLocation)
    }
}

/// The error of type `Failure` that an async `body` throws, a ``ComponentError`` unless told otherwise; or `nil` after
/// recording an issue.
func asyncError<Failure: Error>(
    _: Failure.Type = ComponentError.self,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> Failure? {
    do {
        try await body()
        return expectedError(nil, as: Failure.self, sourceLocation)
    } catch {
        return expectedError(error, as: Failure.self, sourceLocation)
    }
}

/// `thrown` as a `Failure`, or `nil` after recording an issue when nothing or something else was thrown.
private func expectedError<Failure: Error>(
    _ thrown: (any Error)?,
    as _: Failure.Type,
    _ sourceLocation: SourceLocation
) -> Failure? {
    guard let thrown else {
        Issue.record("expected a \(Failure.self), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }
    guard let error = thrown as? Failure else {
        Issue.record("expected a \(Failure.self), got \(thrown)", sourceLocation: sourceLocation)
        return nil
    }
    return error
}

/// A factory's or a command's own error.
struct DatabaseOffline: Error, CustomStringConvertible {
    var description: String { "database offline" }
}
