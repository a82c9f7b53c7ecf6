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
        Issue.record("expected a ServiceHiveError, but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as ServiceHiveError {
        return error
    } catch {
        Issue.record("expected a ServiceHiveError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The `ServiceHiveError` an async `body` throws, or `nil` after recording an issue.
func asyncError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> ServiceHiveError? {
    do {
        try await body()
        Issue.record("expected a ServiceHiveError, but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as ServiceHiveError {
        return error
    } catch {
        Issue.record("expected a ServiceHiveError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

extension ServiceHiveError {
    /// The chain of a `circularDependency`, or `nil` for any other case.
    var cycle: [String]? {
        guard case .circularDependency(let chain) = self else { return nil }
        return chain.map(\.description)
    }
}
