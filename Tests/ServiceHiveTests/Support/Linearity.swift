import Testing

/// Expects the work `run(count)` times, for a count 8 times larger, to take about 8 times as long, not 64 times: that
/// the work is linear, not quadratic. Each size runs 5 times, alternately, and the fastest run of each counts, since a
/// shared machine can only make a run slower. The bound, 24 times, leaves room for a noisy machine and a sanitizer.
func expectLinear(
    small: Int = 2_000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ run: (Int) throws -> Duration
) rethrows {
    let large = small * 8
    _ = try run(small)  // warm up
    var (fastestSmall, fastestLarge) = (Duration.seconds(1_000), Duration.seconds(1_000))
    for _ in 0..<5 {
        fastestSmall = min(fastestSmall, try run(small))
        fastestLarge = min(fastestLarge, try run(large))
    }
    #expect(
        fastestLarge / fastestSmall < 24, "\(small) took \(fastestSmall), \(large) took \(fastestLarge)",
        sourceLocation: sourceLocation)
}
