import FoundationEssentials

/// Time as the core sees it. Injected, so tests can move it by hand.
public protocol PokedexClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends the caller for `seconds` (backoff, Retry-After).
    func sleep(seconds: Double) async throws
}

/// The real clock.
public struct SystemClock: PokedexClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
