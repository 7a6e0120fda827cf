/// How long the network's waits last: the backoff between a fetch's attempts, the probes of a
/// host that is down, a server's `Retry-After`. `scale` shortens them all at once: below 1 only
/// for the project's tests (`POKEDEX_TEST_SCHEDULE_SCALE`), so that no test of a running service
/// waits out a real backoff; a deadline is not a schedule and is never scaled.
public struct NetworkSchedule: Sendable, Equatable {
    /// What every pause is multiplied by.
    public var scale: Double

    public init(scale: Double = 1) { self.scale = scale }

    /// A host that went down is tried again after this, then after twice as long each time…
    var firstProbe: Double { 1 * scale }
    /// … up to this.
    var maxProbe: Double { 30 * scale }
    /// A try due within this is waited for by a caller (the first two tries of an outage, 1 and
    /// 2 s after it began); past that, callers are answered at once.
    var imminent: Double { 2 * scale }

    /// The longest pause before attempt `attempt` + 1 of a fetch: 0.1 s, doubling, at most 2 s.
    func retryCap(attempt: Int) -> Double { min(2.0, 0.1 * Double(1 << min(max(attempt - 1, 0), 5))) * scale }

    /// A server's `Retry-After`, in seconds.
    func retryAfter(_ seconds: Double) -> Double { max(seconds, 0) * scale }
}
