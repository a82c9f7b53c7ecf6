import ServiceHive
import Testing

/// The `ServiceHiveError` that `body` throws, or `nil` after recording an issue when it throws nothing or
/// another error.
func error(
    sourceLocation: SourceLocation = #_sourceLocation,
    from body: () throws -> Void
) -> ServiceHiveError? {
    do {
        try body()
        return expectedError(nil, sourceLocation)
    } catch {
        return expectedError(error, sourceLocation)
    }
}

/// The `ServiceHiveError` an async `body` throws, or `nil` after recording an issue.
func asyncError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> ServiceHiveError? {
    do {
        try await body()
        return expectedError(nil, sourceLocation)
    } catch {
        return expectedError(error, sourceLocation)
    }
}

/// The `ServiceHiveError` a failed `result` holds, or `nil` after recording an issue when it succeeded or holds another
/// error: for what a thread saw, checked on the test's task.
func error<T>(in result: Result<T, any Error>, sourceLocation: SourceLocation = #_sourceLocation) -> ServiceHiveError? {
    switch result {
    case .success: expectedError(nil, sourceLocation)
    case .failure(let thrown): expectedError(thrown, sourceLocation)
    }
}

/// `thrown` as a `ServiceHiveError`, or `nil` after recording an issue when nothing or something else was thrown.
private func expectedError(_ thrown: (any Error)?, _ sourceLocation: SourceLocation) -> ServiceHiveError? {
    guard let thrown else {
        Issue.record("expected a ServiceHiveError, but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }
    guard let error = thrown as? ServiceHiveError else {
        Issue.record("expected a ServiceHiveError, got \(thrown)", sourceLocation: sourceLocation)
        return nil
    }
    return error
}

extension ServiceHiveError {
    /// The chain of a `circularDependency`, or `nil` for any other case.
    var cycle: [String]? {
        guard case .circularDependency(let chain) = self else { return nil }
        return chain.map(\.description)
    }
}
