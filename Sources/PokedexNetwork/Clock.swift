#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexModels

/// A moment on the monotonic clock: seconds since an arbitrary origin. It never steps when
/// the wall clock does (NTP, a person setting the time) and stands still while the machine
/// is suspended, so a 10 s deadline is 10 s and a 30 s backoff is 30 s of running time.
public struct Instant: Comparable, Hashable, Sendable {
    public let seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
    public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }
    public static func + (a: Instant, seconds: Double) -> Instant { Instant(seconds: a.seconds + seconds) }
    /// Seconds from `b` to `a`.
    public static func - (a: Instant, b: Instant) -> Double { a.seconds - b.seconds }
}

/// Time as the core sees it: two clocks, injected, so tests can move each by hand.
public protocol PokedexClock: Sendable {
    /// Wall-clock time, only for what is persisted (a body's fetched-at and max-age, the day a
    /// favorite was added). Never for a deadline, a timeout or a backoff.
    func now() -> Date
    /// Monotonic time (`CLOCK_MONOTONIC`): deadlines, timeouts, backoff, probes, every "until".
    func instant() -> Instant
    /// Suspends the caller for `seconds` of monotonic time (backoff, Retry-After, probes).
    func sleep(seconds: Double) async throws
}

extension PokedexClock {
    /// The wall-clock time `instant` is, read now: for showing a person when something happened
    /// or will ("since 13:45:02 UTC"), never for deciding when.
    public func wallTime(of instant: Instant) -> Date {
        now().addingTimeInterval(instant - self.instant())
    }
}

/// The real clocks.
public struct SystemClock: PokedexClock {
    public init() {}
    public func now() -> Date { Date() }
    public func instant() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(seconds: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
    }
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        // Task.sleep measures on the monotonic clock too: a wall-clock step does not end it.
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86400 * 365) * 1_000_000_000))
    }
}
