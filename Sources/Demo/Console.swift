import Foundation

/// Where the Demo writes: standard output and standard error, or a capture in tests.
struct Console: Sendable {
    let out: @Sendable (String) -> Void
    let error: @Sendable (String) -> Void

    /// The process's standard output and standard error.
    static let standard = Console(
        out: { print($0) },
        error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    )
}
