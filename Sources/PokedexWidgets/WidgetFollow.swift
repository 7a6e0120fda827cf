/// When a widget that follows the service asks it again, and when it says the service is gone.
/// Pure: times are seconds on any monotonic clock, given by the caller.
///
/// - A change (a favorite, the cache cleared, the network back) is answered once things are
///   quiet for ``settle`` seconds, and at the latest ``longest`` seconds after the first change
///   not yet answered: ten quick toggles show once, not ten Pokémon in a row.
/// - The service starting (a restart, an activation by anyone's call) is answered at once.
/// - The service stopping says "unavailable" at once; leaving after its idle timeout changes
///   nothing shown, and nothing is asked until it runs again: a widget that waits never starts
///   the service (D-Bus activation), and the service reaches its idle exit.
/// - The service vanishing (killed or crashed: no `Stopping`) says "unavailable" at once, then
///   asks again after ``restartDelay(_:)``, which starts it where nothing else does (a bus
///   without a user manager); a service that keeps vanishing is asked ever less often.
public struct WidgetFollow: Equatable, Sendable {
    public enum Input: Equatable, Sendable {
        case started
        /// `idle`: it left after its idle timeout; it starts again when called.
        case stopped(idle: Bool)
        /// Something shown may have changed: a favorite, the cache, the network.
        case changed
        /// Its name went without `Stopping`.
        case vanished
    }

    public enum Effect: Equatable, Sendable {
        /// Ask the service and show what it says.
        case refresh
        /// Show that the service is gone, without asking anything.
        case showUnavailable
    }

    public static let settle = 0.25
    public static let longest = 1.0

    /// Whether the service runs, as last heard.
    public private(set) var running: Bool
    /// The first change not answered yet, and when the changes since are quiet (the last one
    /// plus ``settle``; now, for what is answered at once). Kept as a time, not computed from
    /// the last change: `(now - settle) + settle` can round past `now`, and a start would then
    /// wait for the next tick.
    private var firstChange: Double?
    private var quietAt: Double?
    /// When a service that vanished is asked again, and how many times in a row it vanished
    /// soon after it started.
    private var restartAt: Double?
    private var vanishedInARow = 0
    private var startedAt: Double?

    /// Whether the service vanished and is to be asked again (which starts it).
    public var restarting: Bool { restartAt != nil }

    /// The pause before a service that vanished is asked again: 1 s, doubling to 60 s.
    public static func restartDelay(_ times: Int) -> Double { min(60, Double(1 << min(max(times, 1) - 1, 6))) }
    /// A start that lasts this long ends a series of vanishings.
    public static let steady = 60.0

    /// `running`: whether the service runs at the start. The first answer is asked either way:
    /// a widget starting needs one, and that call may start the service.
    public init(running: Bool, at now: Double) {
        self.running = running
        firstChange = now
        quietAt = now
    }

    /// When ``tick(at:)`` has something to do; nil: nothing until the next input.
    public var deadline: Double? {
        guard let first = firstChange, let quietAt else { return restartAt }
        return min(quietAt, first + Self.longest)
    }

    public mutating func receive(_ input: Input, at now: Double) -> [Effect] {
        switch input {
        case .started:
            running = true
            restartAt = nil
            startedAt = now
            firstChange = firstChange ?? now
            quietAt = now  // answered at once
            return tick(at: now)
        case .stopped(let idle):
            running = false
            firstChange = nil
            quietAt = nil
            restartAt = nil
            vanishedInARow = 0
            return idle ? [] : [.showUnavailable]
        case .vanished:
            running = false
            firstChange = nil
            quietAt = nil
            if let startedAt, now - startedAt >= Self.steady { vanishedInARow = 0 }
            vanishedInARow += 1
            restartAt = now + Self.restartDelay(vanishedInARow)
            return [.showUnavailable]
        case .changed:
            // Only the service's own signals say this, so it runs; a change heard while it is
            // said not to (a late signal) waits for it to start.
            guard running else { return [] }
            firstChange = firstChange ?? now
            quietAt = now + Self.settle
            return tick(at: now)
        }
    }

    /// Time passed: the refresh that is due, if one is.
    public mutating func tick(at now: Double) -> [Effect] {
        guard let deadline, now >= deadline else { return [] }
        firstChange = nil
        quietAt = nil
        restartAt = nil
        return [.refresh]
    }
}
