extension ServiceHiveError {
    // MARK: - Codes

    /// A stable number for the error, for logs, analytics and apps that bridge errors to Objective-C.
    ///
    /// | Code | Case |
    /// | ---: | --- |
    /// | 1 | ``notRegistered(_:chain:)`` |
    /// | 2 | ``alreadyRegistered(_:existing:rejected:)`` |
    /// | 3 | ``circularDependency(_:)`` |
    /// | 4 | ``factoryFailed(_:chain:underlying:)`` |
    /// | 5 | ``argumentMismatch(_:registered:chain:)`` |
    /// | 6 | ``weakRequiresClass(_:instanceType:)`` |
    /// | 7 | ``resolutionTooDeep(_:chain:limit:)`` |
    /// | 8 | ``stackExhausted(_:chain:)`` |
    /// | 9 | ``moduleFailed(module:stage:underlying:)`` |
    /// | 10 | ``hiveReleased(_:)`` |
    /// | 11 | ``notOverridden(_:chain:)`` |
    /// | 12 | ``requiresAsync(_:chain:)`` |
    /// | 13 | ``registrationRefused(_:reason:fix:)`` |
    /// | 14 | ``notSendable(_:chain:)`` |
    /// | 15 | ``unmetNeed(module:service:providers:)`` |
    /// | 16 | ``moduleCycle(modules:services:)`` |
    /// | 17 | ``provisionMissing(module:service:registered:)`` |
    /// | 18 | ``conflictingDeclaration(module:service:)`` |
    /// | 19 | ``duplicateProvision(_:modules:)`` |
    /// | 20 | ``unmetDependency(_:parameter:needs:site:suggestions:)`` |
    /// | 21 | ``dependencyCycle(path:parameters:sites:)`` |
    /// | 22 | ``captiveDependency(_:scope:parameter:path:lifetime:site:)`` |
    /// | 23 | ``moduleDependencyUnmet(module:registration:parameter:needs:)`` |
    ///
    /// A code never changes meaning; a new case gets a new code. Codes from 100 belong to the package's other
    /// libraries' errors.
    public var code: Int {
        switch self {
        case .notRegistered: 1
        case .alreadyRegistered: 2
        case .circularDependency: 3
        case .factoryFailed: 4
        case .argumentMismatch: 5
        case .weakRequiresClass: 6
        case .resolutionTooDeep: 7
        case .stackExhausted: 8
        case .moduleFailed: 9
        case .hiveReleased: 10
        case .notOverridden: 11
        case .requiresAsync: 12
        case .registrationRefused: 13
        case .notSendable: 14
        case .unmetNeed: 15
        case .moduleCycle: 16
        case .provisionMissing: 17
        case .conflictingDeclaration: 18
        case .duplicateProvision: 19
        case .unmetDependency: 20
        case .dependencyCycle: 21
        case .captiveDependency: 22
        case .moduleDependencyUnmet: 23
        }
    }
}
